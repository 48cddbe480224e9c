import { useQuery } from "@tanstack/react-query";
import { FileText, Folder, Upload, X } from "lucide-react";
import { useRef } from "react";
import { Link } from "wouter";
import type { Collection, KnowledgeFile } from "../../../../shared/contracts/knowledge.js";
import { formatBytes } from "../../../../shared/contracts/knowledge.js";
import { FileState } from "../../../components/file-state.js";
import { Button } from "../../../components/ui/button.js";
import { Checkbox } from "../../../components/ui/checkbox.js";
import { LoadFailed } from "../../../components/ui/load-failed.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { paths } from "../../../lib/paths.js";
import { materialCollectionsQuery, materialFilesQuery } from "../material-api.js";
import type { PendingUpload } from "../use-material-uploads.js";

export type MaterialChoice = { fileIds: number[]; collectionId: number | null };

type Props = {
  choice: MaterialChoice;
  onChange: (choice: MaterialChoice) => void;
  uploads: PendingUpload[];
  onUpload: (files: File[]) => void;
  onDismissUpload: (key: number) => void;
};

/** Step 1 of "From my material": a collection and/or files of the library, or new files uploaded here. */
export function MaterialPicker({ choice, onChange, uploads, onUpload, onDismissUpload }: Props) {
  const files = useQuery(materialFilesQuery());
  const collections = useQuery(materialCollectionsQuery);
  const input = useRef<HTMLInputElement>(null);
  const toggleFile = (id: number, on: boolean) =>
    onChange({ ...choice, fileIds: on ? [...choice.fileIds, id] : choice.fileIds.filter((fileId) => fileId !== id) });

  return (
    <div className="grid gap-5">
      <section aria-labelledby="material-collections" className="grid gap-2">
        <h3 id="material-collections" className="text-sm font-semibold">
          A collection
        </h3>
        {collections.isPending ? (
          <Spinner label="Loading your collections" />
        ) : collections.isError ? (
          <LoadFailed
            title="Your collections could not be loaded."
            error={collections.error}
            advice="Check your connection and retry."
            retrying={collections.isFetching}
            onRetry={() => void collections.refetch()}
          />
        ) : collections.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No collections yet. Group files into collections in{" "}
            <Link href={paths.knowledge} className="font-medium text-primary underline underline-offset-2">
              your library
            </Link>
            .
          </p>
        ) : (
          <ul className="grid max-h-40 gap-1 overflow-y-auto rounded-md border p-1">
            {collections.data.map((collection) => (
              <CollectionRow
                key={collection.id}
                collection={collection}
                checked={choice.collectionId === collection.id}
                onCheck={(on) => onChange({ ...choice, collectionId: on ? collection.id : null })}
              />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="material-files" className="grid gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="material-files" className="text-sm font-semibold">
            Files
          </h3>
          <Button variant="outline" size="sm" onClick={() => input.current?.click()}>
            <Upload aria-hidden="true" />
            Upload files
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label="Upload files"
            data-testid="material-upload-input"
            onChange={(event) => {
              onUpload([...(event.target.files ?? [])]);
              event.target.value = "";
            }}
          />
        </div>
        {uploads.length > 0 ? (
          <ul className="grid gap-1" aria-label="Uploads">
            {uploads.map((upload) => (
              <li key={upload.key} className="flex items-start gap-2 rounded-md border px-2 py-1.5 text-sm">
                <FileText className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                <span className="grid min-w-0 flex-1">
                  <span className="truncate">{upload.name}</span>
                  {upload.error ? (
                    <span className="text-xs text-destructive dark:text-red-300">{upload.error}</span>
                  ) : (
                    <span className="text-xs text-muted-foreground">Uploading {Math.round(upload.share * 100)}%</span>
                  )}
                </span>
                {upload.error ? (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    aria-label={`Dismiss ${upload.name}`}
                    onClick={() => onDismissUpload(upload.key)}
                  >
                    <X aria-hidden="true" />
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {files.isPending ? (
          <Spinner label="Loading your files" />
        ) : files.isError ? (
          <LoadFailed
            title="Your files could not be loaded."
            error={files.error}
            advice="Check your connection and retry."
            retrying={files.isFetching}
            onRetry={() => void files.refetch()}
          />
        ) : files.data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No files yet. Upload some here, or add them in{" "}
            <Link href={paths.knowledge} className="font-medium text-primary underline underline-offset-2">
              your library
            </Link>
            .
          </p>
        ) : (
          <ul className="grid max-h-64 gap-1 overflow-y-auto rounded-md border p-1" aria-label="Library files">
            {files.data.items.map((file) => (
              <FileRow key={file.id} file={file} checked={choice.fileIds.includes(file.id)} onCheck={(on) => toggleFile(file.id, on)} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function CollectionRow({ collection, checked, onCheck }: { collection: Collection; checked: boolean; onCheck: (on: boolean) => void }) {
  const id = `material-collection-${collection.id}`;
  return (
    <li className="flex items-center gap-2 rounded px-2 py-1.5 hover:bg-accent/50">
      <Checkbox id={id} checked={checked} onCheckedChange={(state) => onCheck(state === true)} />
      <Folder className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <label htmlFor={id} className="min-w-0 flex-1 truncate text-sm">
        {collection.name}
      </label>
      <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
        {collection.fileCount} {collection.fileCount === 1 ? "file" : "files"}
      </span>
    </li>
  );
}

function FileRow({ file, checked, onCheck }: { file: KnowledgeFile; checked: boolean; onCheck: (on: boolean) => void }) {
  const id = `material-file-${file.id}`;
  return (
    <li className="flex items-start gap-2 rounded px-2 py-1.5 hover:bg-accent/50">
      <Checkbox id={id} className="mt-0.5" checked={checked} onCheckedChange={(state) => onCheck(state === true)} />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <label htmlFor={id} className="truncate text-sm" title={file.name}>
          {file.name}
        </label>
        <span className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
          <FileState file={file} />
          <span>{formatBytes(file.size)}</span>
          {file.status === "failed" && file.error ? <span className="text-destructive dark:text-red-300">{file.error}</span> : null}
        </span>
      </span>
    </li>
  );
}
