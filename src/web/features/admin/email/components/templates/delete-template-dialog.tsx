import type { EmailTemplate } from "../../../../../../shared/contracts/email.js";
import { ConfirmDialog } from "../../../../../components/ui/confirm-dialog.js";
import { notify } from "../../../../../lib/notify.js";
import { useDeleteTemplate } from "../../api.js";
import { templateFailure } from "./template-messages.js";

export function DeleteTemplateDialog({
  template,
  onClose,
  onDeleted,
}: {
  template: EmailTemplate;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteTemplate();
  return (
    <ConfirmDialog
      title="Delete template?"
      message={`Are you sure you want to delete the "${template.name}" template? This action cannot be undone.`}
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(template.id, {
          onSuccess: () => {
            onClose();
            onDeleted();
            notify.success("Template deleted");
          },
          onError: (error) => notify.error("Failed to delete template", templateFailure(error, "delete")),
        })
      }
    />
  );
}
