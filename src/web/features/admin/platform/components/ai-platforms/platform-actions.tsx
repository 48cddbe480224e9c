import { Pencil, Plug, Power } from "lucide-react";
import type { AdminPlatform } from "../../../../../../shared/contracts/ai-platforms.js";
import { Button } from "../../../../../components/ui/button.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { notify } from "../../../../../lib/notify.js";
import { useTestPlatform, useUpdatePlatform } from "../../api.js";

/** Edit, Disable (only while active; then it reads Disabled) and Test connection. */
export function PlatformActions({ platform, onEdit, editLocked }: { platform: AdminPlatform; onEdit: () => void; editLocked: boolean }) {
  const disable = useUpdatePlatform();
  const test = useTestPlatform();
  const active = platform.status === "active";

  const onDisable = () =>
    disable.mutate(
      { id: platform.id, body: { status: "inactive" } },
      {
        onSuccess: (saved) => notify.success("Platform disabled", `${saved.name} is no longer offered in chat.`),
        onError: (error) => notify.error("Error disabling platform", errorMessage(error)),
      },
    );

  const onTest = () =>
    test.mutate(platform.id, {
      onSuccess: (result) => notify.success("Connection works", `${result.model} answered in ${result.latencyMs} ms`),
      onError: (error) => notify.error("Connection failed", errorMessage(error)),
    });

  return (
    <div className="flex flex-wrap gap-2 pt-4">
      <Button variant="outline" size="sm" onClick={onEdit} disabled={editLocked}>
        <Pencil aria-hidden="true" />
        Edit
      </Button>
      <Button variant="outline" size="sm" onClick={onDisable} disabled={!active || disable.isPending}>
        {disable.isPending ? <ButtonSpinner /> : <Power aria-hidden="true" />}
        {active ? "Disable" : "Disabled"}
      </Button>
      <Button variant="outline" size="sm" onClick={onTest} disabled={test.isPending}>
        {test.isPending ? <ButtonSpinner /> : <Plug aria-hidden="true" />}
        {test.isPending ? "Testing..." : "Test connection"}
      </Button>
    </div>
  );
}
