import type { ReactNode } from "react";
import type { AdminPlatform } from "../../../../../../shared/contracts/ai-platforms.js";

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 py-1.5 sm:grid-cols-[8rem_1fr] sm:gap-2">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function ModelList({ models }: { models: string[] }) {
  if (models.length === 0) return <span className="text-muted-foreground">None</span>;
  return (
    <ul className="flex flex-wrap gap-1">
      {models.map((model) => (
        <li key={model} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
          {model}
        </li>
      ))}
    </ul>
  );
}

/** View mode of a card: where the key comes from (a hint only) and the settings. */
export function PlatformDetails({ platform }: { platform: AdminPlatform }) {
  const { settings } = platform;
  return (
    <dl className="divide-y text-sm">
      <Row term="API key">
        {platform.hasApiKey ? (
          <>
            <span className="font-mono">Key: {platform.apiKeyHint}</span>
            {platform.apiKeySource === "environment" ? <span className="text-muted-foreground"> (from environment)</span> : null}
          </>
        ) : (
          <span className="text-muted-foreground">No API key</span>
        )}
      </Row>
      {platform.kind === "openai" ? <Row term="API">{platform.api === "responses" ? "Responses" : "Chat Completions"}</Row> : null}
      {platform.baseUrl ? (
        <Row term="Base URL">
          <span className="block truncate font-mono text-xs" title={platform.baseUrl}>
            {platform.baseUrl}
          </span>
        </Row>
      ) : null}
      <Row term="Models">
        <ModelList models={settings.models} />
      </Row>
      <Row term="Default model">
        {settings.defaultModel ? (
          <span className="font-mono text-xs">{settings.defaultModel}</span>
        ) : (
          <span className="text-muted-foreground">None</span>
        )}
      </Row>
      <Row term="Free-tier models">
        <ModelList models={settings.freeModels} />
      </Row>
      <Row term="Temperature">{settings.temperature}</Row>
      <Row term="Max tokens">{settings.maxTokens}</Row>
    </dl>
  );
}
