import { useQuery } from "@tanstack/react-query";
import { AlertTriangle } from "lucide-react";
import { MAX_TOKENS, TEMPERATURE } from "../../../../shared/constants.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { PageSpinner } from "../../../components/ui/spinner.js";
import { SwitchField } from "../../../components/ui/switch-field.js";
import { usePlatformSettings } from "../../../domain/platform-settings.js";
import { errorMessage } from "../../../lib/api-client.js";
import { userSettingsQuery, useUpdateSetting } from "../api.js";
import { DefaultModelSelect } from "./default-model-select.js";
import { SettingSlider } from "./setting-slider.js";

/** Default model, temperature, response length, history and markdown; each change saves one field. */
export function AiPreferences() {
  const settings = useQuery(userSettingsQuery);
  const update = useUpdateSetting();
  // Platform Settings can switch chat history or model selection off for everyone (the server enforces both).
  const platform = usePlatformSettings().settings;

  if (settings.isPending) return <PageSpinner label="Loading your AI preferences" />;
  if (settings.isError) {
    return (
      <Alert variant="destructive" className="items-start">
        <AlertTriangle aria-hidden="true" />
        <div className="grid gap-3">
          <p>Your AI preferences could not be loaded: {errorMessage(settings.error)}</p>
          <Button variant="outline" size="sm" className="w-fit" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </div>
      </Alert>
    );
  }

  const data = settings.data;
  return (
    <div className="grid max-w-2xl gap-8">
      <DefaultModelSelect
        value={data.defaultModel}
        lockedByAdmin={!platform.enableModelSelection}
        onChange={(value) => update.mutate({ key: "defaultModel", value })}
      />
      <SettingSlider
        label="Temperature"
        description="Lower is more focused and predictable; higher is more creative."
        value={Number(data.temperature)}
        min={TEMPERATURE.min}
        max={TEMPERATURE.max}
        step={TEMPERATURE.step}
        format={(v) => v.toFixed(1)}
        onCommit={(v) => update.mutate({ key: "temperature", value: v.toFixed(1) })}
      />
      <SettingSlider
        label="Response Length"
        description="The most tokens a reply may use."
        value={data.maxTokens}
        min={MAX_TOKENS.min}
        max={MAX_TOKENS.max}
        step={MAX_TOKENS.step}
        format={(v) => `${v} tokens`}
        onCommit={(v) => update.mutate({ key: "maxTokens", value: v })}
      />
      <div className="grid gap-3">
        <SwitchField
          label="Save Chat History"
          description={
            platform.enableHistory
              ? "Keep your conversations so you can come back to them. When off, new chats are temporary."
              : "Chat history is turned off for everyone by the administrator: new chats are temporary."
          }
          checked={platform.enableHistory && data.saveHistory}
          disabled={!platform.enableHistory}
          onChange={(value) => update.mutate({ key: "saveHistory", value })}
        />
        <SwitchField
          label="Enable Markdown Rendering"
          description="Show AI replies with headings, lists, tables and code formatting."
          checked={data.markdownRendering}
          onChange={(value) => update.mutate({ key: "markdownRendering", value })}
        />
      </div>
    </div>
  );
}
