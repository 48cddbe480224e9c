import { useQuery } from "@tanstack/react-query";
import { NativeSelect } from "../../../../components/ui/native-select.js";
import { foldersQuery } from "../../folders-api.js";

/** Where the search looks: all chats, or one folder. Shown once there are folders. */
export function SearchScopeSelect({ folderId, onChange }: { folderId: number | null; onChange: (folderId: number | null) => void }) {
  const folders = useQuery(foldersQuery);
  if (!folders.data?.length) return null;
  return (
    <NativeSelect
      aria-label="Search in"
      className="h-9"
      value={folderId ?? ""}
      onChange={(event) => onChange(event.target.value ? Number(event.target.value) : null)}
    >
      <option value="">All chats</option>
      {folders.data.map((folder) => (
        <option key={folder.id} value={folder.id}>
          {folder.name}
        </option>
      ))}
    </NativeSelect>
  );
}
