import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { KeyRound, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiDocsApi } from "../../../../shared/contracts/api-docs.js";
import { type ApiToken, type CreateTokenBody, createTokenBodySchema } from "../../../../shared/contracts/api-tokens.js";
import type { TokenScope } from "../../../../shared/contracts/endpoint.js";
import { OPENAI_BASE_PATH } from "../../../../shared/contracts/openai.js";
import { modelValue } from "../../../../shared/model-choice.js";
import { CopyButton } from "../../../components/markdown/copy-button.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { FieldError, FormField, TextField } from "../../../components/ui/form-field.js";
import { Input } from "../../../components/ui/input.js";
import { LoadFailed } from "../../../components/ui/load-failed.js";
import { NativeSelect } from "../../../components/ui/native-select.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { useConfirmedRevoke } from "../../../components/ui/use-confirmed-revoke.js";
import { aiPlatformsQuery } from "../../../domain/ai-models.js";
import { errorMessage } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from "../tokens-api.js";

/** What each scope opens, in the words the form shows. */
const SCOPES: { scope: TokenScope; label: string; hint: string }[] = [
  { scope: "chat", label: "Chat", hint: "Read and write your chats, and get replies." },
  { scope: "courses:read", label: "Courses (read)", hint: "Read your courses and the public ones." },
  { scope: "models", label: "Models", hint: "List the AI platforms and models you may use." },
  {
    scope: "files:read",
    label: "Files (read)",
    hint: "Read your library (files, collections and their passages) and use it in chats: attach files, search collections, open citations.",
  },
];
const EXPIRY_DAYS = [7, 30, 90, 365] as const;
const empty: CreateTokenBody = { name: "", expiresInDays: 30, scopes: ["chat"] };

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
const scopeLabel = (scope: string) => SCOPES.find((s) => s.scope === scope)?.label ?? scope;

/** A value to paste elsewhere: read-only, selected on focus, with Copy. */
function CopyableValue({ value, label, copyLabel }: { value: string; label: string; copyLabel: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Input
        readOnly
        value={value}
        aria-label={label}
        className="min-w-0 flex-1 font-mono text-xs"
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyButton showText getText={() => value} label={copyLabel} className="h-9" />
    </div>
  );
}

/** The token just made: shown this once, with Copy. */
function NewToken({ token, onDone }: { token: string; onDone: () => void }) {
  return (
    <Alert>
      <KeyRound aria-hidden="true" />
      <div className="grid min-w-0 flex-1 gap-3">
        <p className="font-medium">Copy your new token now</p>
        <p>It will not be shown again. Send it as "Authorization: Bearer ..." with each request.</p>
        <CopyableValue value={token} label="Your new API token" copyLabel="Copy token" />
        <div>
          <Button variant="outline" size="sm" onClick={onDone}>
            Done
          </Button>
        </div>
      </div>
    </Alert>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (token: string) => void }) {
  const form = useForm<CreateTokenBody>({ resolver: zodResolver(createTokenBodySchema), defaultValues: empty });
  const { errors } = form.formState;
  const create = useCreateApiToken();
  const onSubmit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: (made) => {
        form.reset(empty);
        onCreated(made.token);
      },
      onError: (error) => {
        applyServerFieldErrors(form.setError, error, ["name", "expiresInDays", "scopes"]);
        notify.error("Could not create the token", errorMessage(error));
      },
    }),
  );
  return (
    <form noValidate className="grid max-w-xl gap-4" onSubmit={onSubmit} aria-label="New API token">
      <TextField id="token-name" label="Name" placeholder="My script" error={errors.name?.message} {...form.register("name")} />
      <FormField id="token-expiry" label="Expires after" error={errors.expiresInDays?.message}>
        <NativeSelect id="token-expiry" {...form.register("expiresInDays", { setValueAs: (value) => Number(value) })}>
          {EXPIRY_DAYS.map((days) => (
            <option key={days} value={days}>
              {days === 365 ? "1 year" : `${days} days`}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <fieldset className="grid gap-2" aria-describedby={errors.scopes ? "token-scopes-error" : undefined}>
        <legend className="mb-1 text-sm font-medium">Scopes</legend>
        {SCOPES.map(({ scope, label, hint }) => (
          <label key={scope} className="flex items-start gap-2 text-sm">
            <input type="checkbox" value={scope} className="mt-0.5 size-4 shrink-0 accent-primary" {...form.register("scopes")} />
            <span>
              <span className="font-medium">{label}</span> <span className="text-muted-foreground">{hint}</span>
            </span>
          </label>
        ))}
        <FieldError id="token-scopes-error" message={errors.scopes?.message} />
      </fieldset>
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <ButtonSpinner /> : null}
          {create.isPending ? "Creating..." : "Create token"}
        </Button>
      </div>
    </form>
  );
}

function TokenRow({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3" data-token-id={token.id}>
      <div className="min-w-0">
        <p className="truncate font-medium">
          {token.name} <span className="font-mono text-xs text-muted-foreground">…{token.hint}</span>
        </p>
        <p className="text-xs text-muted-foreground">
          {token.scopes.map(scopeLabel).join(", ")} · expires {day(token.expiresAt)} ·{" "}
          {token.lastUsedAt ? `last used ${day(token.lastUsedAt)}` : "never used"}
        </p>
      </div>
      <Button variant="outline" size="sm" className="text-destructive" onClick={onRevoke} aria-label={`Revoke ${token.name}`}>
        <Trash2 aria-hidden="true" />
        Revoke
      </Button>
    </li>
  );
}

/**
 * The OpenAI-compatible endpoint (decision 051): its base URL, to paste into any OpenAI client, and one call with
 * curl. The token goes where `$TOKEN` stands.
 */
function OpenAiEndpoint() {
  const baseUrl = `${window.location.origin}${OPENAI_BASE_PATH}`;
  // A model this user may call (their first usable platform's default), else the id's shape.
  const platform = useQuery(aiPlatformsQuery).data?.find((p) => p.defaultModel || p.models.length > 0);
  const model = platform ? modelValue(platform.slug, platform.defaultModel || platform.models[0]) : "platform/model";
  const body = JSON.stringify({ model, messages: [{ role: "user", content: "Hello" }] });
  const example = `curl ${baseUrl}/chat/completions -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -d '${body.replaceAll("'", "'\\''")}'`;
  return (
    <section className="grid gap-2" aria-labelledby="openai-endpoint-heading">
      <h3 id="openai-endpoint-heading" className="text-sm font-medium">
        OpenAI-compatible endpoint
      </h3>
      <p className="text-sm text-muted-foreground">
        Point any OpenAI client at this base URL with a token holding the Chat scope (Models to list them); model names are
        "platform/model", as <code className="font-mono text-xs">GET {OPENAI_BASE_PATH}/models</code> lists them. Your plan's allowance
        applies.
      </p>
      <CopyableValue value={baseUrl} label="Base URL" copyLabel="Copy base URL" />
      <p className="text-sm text-muted-foreground">For example:</p>
      <pre className="whitespace-pre-wrap break-all rounded-md border bg-muted p-3 font-mono text-xs">{example}</pre>
    </section>
  );
}

/** Settings > Developer: personal API tokens (issue 35, decision 049) and the way to the API reference. */
export function ApiTokensCard() {
  const tokens = useApiTokens();
  const [made, setMade] = useState<string | null>(null);
  const revoke = useConfirmedRevoke({
    mutation: useRevokeApiToken(),
    keyOf: (token: ApiToken) => token.id,
    title: "Revoke this token?",
    message: (token) => `"${token.name}" will stop working at once for every script that uses it. This cannot be undone.`,
    done: () => ["Token revoked", "It stopped working at once."],
    failed: "Could not revoke the token",
  });
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">
        Every endpoint is described in the{" "}
        <a className="font-medium text-primary underline-offset-4 hover:underline" href={apiDocsApi.reference.path}>
          API reference
        </a>
        .
      </p>
      <OpenAiEndpoint />
      {made ? <NewToken token={made} onDone={() => setMade(null)} /> : <CreateTokenForm onCreated={setMade} />}
      <section className="grid gap-3" aria-labelledby="tokens-heading">
        <h3 id="tokens-heading" className="text-sm font-medium">
          Your tokens
        </h3>
        {tokens.isPending ? (
          <Spinner label="Loading your tokens..." />
        ) : tokens.isError ? (
          <LoadFailed
            title="Failed to load your tokens."
            error={tokens.error}
            advice="Check your connection, then try again."
            retrying={tokens.isFetching}
            onRetry={() => void tokens.refetch()}
          />
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No API tokens yet. Create one above to call the API from a script.</p>
        ) : (
          <ul className="grid gap-2" aria-label="API tokens">
            {tokens.data.map((token) => (
              <TokenRow key={token.id} token={token} onRevoke={() => revoke.ask(token)} />
            ))}
          </ul>
        )}
      </section>
      {revoke.dialog}
    </div>
  );
}
