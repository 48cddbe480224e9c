import { BadgeCheck, ShieldX } from "lucide-react";
import { useEffect, useState } from "react";
import { useParams } from "wouter";
import type { Certificate, certificatesApi } from "../../../../shared/contracts/assessment.js";
import { certificateVerifyAddress } from "../../../../shared/contracts/certificate-address.js";
import { typedAddress } from "../../../../shared/contracts/endpoint.js";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { call, isApiError } from "../../../lib/api-client.js";
import { usePageTitle } from "../../../lib/page-title.js";

/** GET /api/certificates/:code without the contract's schemas (the public pages' small app loads no zod). */
const verifyRead = typedAddress<typeof certificatesApi.verify>(certificateVerifyAddress);

type State = { kind: "loading" } | { kind: "found"; certificate: Certificate } | { kind: "missing" } | { kind: "failed" };

/** Search engines leave the page out (the server also says so in the HTML it sends and in X-Robots-Tag). */
function useNoIndex(): void {
  useEffect(() => {
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="robots"]');
    const added = !meta;
    if (!meta) {
      meta = document.createElement("meta");
      meta.name = "robots";
      document.head.append(meta);
    }
    const before = meta.content;
    meta.content = "noindex";
    return () => {
      if (added) meta.remove();
      else meta.content = before;
    };
  }, []);
}

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });

/**
 * /certificates/:code (issue 32): anyone, signed in or not, sees whether a certificate is genuine or revoked. Drawn by
 * the public pages' small app for visitors and by the app for signed-in users, reading the public API.
 */
export function CertificatePage() {
  const { code = "" } = useParams<{ code: string }>();
  const [state, setState] = useState<State>({ kind: "loading" });
  useNoIndex();
  usePageTitle("Certificate");
  useEffect(() => {
    let live = true;
    setState({ kind: "loading" });
    call(verifyRead, { params: { code } })
      .then((certificate) => live && setState({ kind: "found", certificate }))
      .catch((error: unknown) => {
        if (!live) return;
        setState(isApiError(error) && (error.status === 404 || error.status === 400) ? { kind: "missing" } : { kind: "failed" });
      });
    return () => {
      live = false;
    };
  }, [code]);

  return (
    <PublicLayout>
      <section className="mx-auto grid max-w-2xl gap-6 px-4 py-16 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">Certificate verification</h1>
        {state.kind === "loading" && (
          <p className="flex items-center gap-2 text-muted-foreground" role="status">
            <Spinner /> Checking the certificate…
          </p>
        )}
        {state.kind === "missing" && (
          <div className="rounded-2xl border bg-muted/40 p-6" role="alert">
            <h2 className="text-xl font-semibold">Certificate not found</h2>
            <p className="mt-2 text-muted-foreground">No certificate has this code. Check the address on the certificate and try again.</p>
          </div>
        )}
        {state.kind === "failed" && (
          <div className="rounded-2xl border bg-muted/40 p-6" role="alert">
            <h2 className="text-xl font-semibold">The certificate could not be checked</h2>
            <p className="mt-2 text-muted-foreground">Something went wrong on our side. Reload the page in a moment.</p>
          </div>
        )}
        {state.kind === "found" && <CertificateCard certificate={state.certificate} />}
      </section>
    </PublicLayout>
  );
}

function CertificateCard({ certificate }: { certificate: Certificate }) {
  const revoked = certificate.revoked;
  return (
    <article
      className={`rounded-2xl border-2 p-6 sm:p-8 ${revoked ? "border-destructive/60 bg-destructive/5" : "border-primary/50 bg-primary/5"}`}
      aria-labelledby="certificate-verdict"
    >
      <h2 id="certificate-verdict" className="flex items-center gap-2 text-xl font-semibold">
        {revoked ? (
          <ShieldX className="size-6 shrink-0 text-destructive" aria-hidden="true" />
        ) : (
          <BadgeCheck className="size-6 shrink-0 text-primary" aria-hidden="true" />
        )}
        {revoked ? "This certificate was revoked" : "This certificate is genuine"}
      </h2>
      {revoked && certificate.revokedAt && (
        <p className="mt-2 text-sm text-muted-foreground">
          Revoked by the course's owner on {day(certificate.revokedAt)}. It no longer certifies completion.
        </p>
      )}
      <dl className="mt-6 grid gap-4 sm:grid-cols-[max-content_1fr] sm:gap-x-6">
        <dt className="text-sm text-muted-foreground">Awarded to</dt>
        <dd className="break-words text-lg font-semibold">{certificate.learnerName}</dd>
        <dt className="text-sm text-muted-foreground">Course</dt>
        <dd className="break-words font-medium">{certificate.courseTitle}</dd>
        <dt className="text-sm text-muted-foreground">Taught by</dt>
        <dd className="break-words">{certificate.ownerName}</dd>
        <dt className="text-sm text-muted-foreground">Issued on</dt>
        <dd>{day(certificate.issuedAt)}</dd>
        <dt className="text-sm text-muted-foreground">Code</dt>
        <dd className="break-all font-mono text-sm">{certificate.code}</dd>
      </dl>
    </article>
  );
}
