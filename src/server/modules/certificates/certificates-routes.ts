import type { FastifyInstance, FastifyRequest } from "fastify";
import { certificatesApi as api } from "../../../shared/contracts/assessment.js";
import { route } from "../../lib/route.js";
import { publicOrigin } from "../email/product-emails.js";
import { courseAnalytics, courseAnalyticsCsv } from "./analytics-service.js";
import { certificateFile, courseCertificates, revokeCertificate, verifyCertificate } from "./certificates-service.js";

/** Certificates (a learner's PDF, anyone's verification, the owner's list and revoke) and the owner's analytics (issue 32). */
export async function certificateRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;
  /** Where the verification page is: PUBLIC_ORIGIN when set, else the origin the learner reached the app at. */
  const origin = (request: FastifyRequest) => (config.PUBLIC_ORIGIN ? publicOrigin(config) : `${request.protocol}://${request.host}`);

  route(app, api.certificate, async (request, reply) => {
    const { code, pdf } = await certificateFile({ db, who: request.user, courseId: request.params.id, origin: origin(request) });
    return reply
      .header("Content-Type", "application/pdf")
      .header("Content-Disposition", `attachment; filename="certificate-${code}.pdf"`)
      .header("x-certificate-code", code)
      .header("Cache-Control", "no-store")
      .send(Buffer.from(pdf));
  });
  route(app, api.verify, async (request, reply) => {
    reply.header("X-Robots-Tag", "noindex");
    return verifyCertificate({ db, code: request.params.code });
  });
  route(app, api.revoke, async (request) => revokeCertificate({ db, who: request.user, code: request.params.code }));
  route(app, api.courseCertificates, async (request) => courseCertificates({ db, who: request.user, courseId: request.params.id }));
  route(app, api.analytics, async (request) => courseAnalytics({ db, who: request.user, courseId: request.params.id }));
  route(app, api.analyticsExport, async (request, reply) => {
    const { csv, fileName } = await courseAnalyticsCsv({ db, who: request.user, courseId: request.params.id });
    return reply
      .header("Content-Type", "text/csv; charset=utf-8")
      .header("Content-Disposition", `attachment; filename="${fileName}"`)
      .header("Cache-Control", "no-store")
      .send(csv);
  });
}
