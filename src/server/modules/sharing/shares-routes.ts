import type { FastifyInstance, FastifyRequest } from "fastify";
import { adminSharesApi, sharesApi as api } from "../../../shared/contracts/sharing.js";
import { route } from "../../lib/route.js";
import { publicOrigin } from "../email/product-emails.js";
import {
  adminRevokeShare,
  continueShare,
  createShare,
  getSharedChat,
  listAllShares,
  listShares,
  revokeShare,
  updateShare,
} from "./shares-service.js";

/** Chat share links (issue 33, decision 043): the owner's links, the public snapshot, continue, and the admins' list. */
export async function shareRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;
  /** Where a link points: PUBLIC_ORIGIN when set, else the origin the caller reached the app at. */
  const origin = (request: FastifyRequest) => (config.PUBLIC_ORIGIN ? publicOrigin(config) : `${request.protocol}://${request.host}`);

  route(app, api.create, async (request) =>
    createShare({
      db,
      who: request.user,
      chatId: request.params.id,
      showAuthor: request.body.showAuthor ?? false,
      origin: origin(request),
    }),
  );
  route(app, api.list, async (request) => listShares({ db, who: request.user, query: request.query, origin: origin(request) }));
  route(app, api.update, async (request) =>
    updateShare({ db, who: request.user, token: request.params.token, showAuthor: request.body.showAuthor, origin: origin(request) }),
  );
  route(app, api.revoke, async (request) => revokeShare({ db, who: request.user, token: request.params.token }));
  route(app, api.get, async (request) => getSharedChat({ db, token: request.params.token }));
  route(app, api.continue, async (request) => continueShare({ db, who: request.user, token: request.params.token }));

  route(app, adminSharesApi.list, async (request) => listAllShares({ db, query: request.query, origin: origin(request) }));
  route(app, adminSharesApi.revoke, async (request) => adminRevokeShare({ db, token: request.params.token }));
}
