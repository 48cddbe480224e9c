import { useQuery } from "@tanstack/react-query";
import { FolderPlus, Library, MessageSquare, MoreHorizontal, Pencil, Trash2, Upload } from "lucide-react";
import { type DragEvent, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import {
  COLLECTION_NAME_MAX,
  type Collection,
  FILE_NAME_MAX,
  formatBytes,
  type KnowledgeFile,
} from "../../../../shared/contracts/knowledge.js";
import { Button } from "../../../components/ui/button.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "../../../components/ui/dropdown-menu.js";
import { LoadMoreFooter } from "../../../components/ui/load-more.js";
import { NativeSelect } from "../../../components/ui/native-select.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { usageQuery } from "../../../domain/usage.js";
import { errorMessage } from "../../../lib/api-client.js";
import { askCollectionPath } from "../../../lib/ask-collection.js";
import { cn } from "../../../lib/cn.js";
import { notify } from "../../../lib/notify.js";
import { usePageTitle } from "../../../lib/page-title.js";
import {
  collectionsQuery,
  knowledgeStatusQuery,
  uploadFile,
  useCreateCollection,
  useDeleteCollection,
  useDeleteFile,
  useFiles,
  useRefreshLibrary,
  useRenameCollection,
  useRetryFile,
  useUpdateFile,
} from "../api.js";
import { FileRow } from "../components/file-row.js";
import { NameDialog } from "../components/name-dialog.js";
import { StorageMeters } from "../components/storage-meters.js";
import { FULL_TEXT_ONLY } from "../full-text-note.js";

const EMPTY_LIBRARY = "No files yet. Upload PDFs, Word documents, text, Markdown, HTML, CSV, JSON, code or images.";
const EMPTY_COLLECTION = "This collection has no files yet. Upload files here, or move files into it from All files.";

/** One upload under way or refused: its progress (0 to 1) or the server's message. */
type UploadItem = { key: string; name: string; share: number; error: string | null };

type Dialog =
  | { kind: "newCollection" }
  | { kind: "renameCollection"; collection: Collection }
  | { kind: "deleteCollection"; collection: Collection }
  | { kind: "renameFile"; file: KnowledgeFile }
  | { kind: "deleteFile"; file: KnowledgeFile }
  | null;

/** /knowledge: the user's library, collections on the left (a select on phones), the files of the one chosen. */
export function KnowledgePage() {
  usePageTitle("Knowledge");
  const [selected, setSelected] = useState<number | null>(null);
  const collections = useQuery(collectionsQuery);
  const files = useFiles(selected);
  const usage = useQuery(usageQuery);
  const [uploads, setUploads] = useState<UploadItem[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dragging, setDragging] = useState(false);
  const chooser = useRef<HTMLInputElement>(null);
  const refresh = useRefreshLibrary();
  const createCollection = useCreateCollection();
  const renameCollection = useRenameCollection();
  const deleteCollection = useDeleteCollection();
  const updateFile = useUpdateFile();
  const deleteFile = useDeleteFile();
  const retryFile = useRetryFile();

  const list = collections.data ?? [];
  const current = selected === null ? null : (list.find((collection) => collection.id === selected) ?? null);

  function startUploads(chosen: File[]) {
    const target = selected;
    for (const file of chosen) {
      const key = `${Date.now()}-${Math.random()}`;
      setUploads((items) => [...items, { key, name: file.name, share: 0, error: null }]);
      const update = (change: Partial<UploadItem>) =>
        setUploads((items) => items.map((item) => (item.key === key ? { ...item, ...change } : item)));
      uploadFile(file, target, (share) => update({ share }))
        .then(() => {
          setUploads((items) => items.filter((item) => item.key !== key));
          refresh();
        })
        .catch((error: unknown) => update({ error: errorMessage(error, "The upload failed.") }));
    }
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = [...(event.dataTransfer?.files ?? [])];
    if (dropped.length > 0) startUploads(dropped);
  };

  const status = useQuery(knowledgeStatusQuery);
  const storage = usage.data?.storage;
  const fileItems = files.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is the pointer way; "Upload files" is the keyboard way.
    <div
      data-testid="knowledge-page"
      className="relative mx-auto grid max-w-6xl gap-6"
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
        setDragging(false);
      }}
      onDrop={onDrop}
    >
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Knowledge</h1>
          <p className="text-muted-foreground">Your documents and images, searched when a chat uses them.</p>
        </div>
        <div className="flex items-center gap-2">
          <input
            ref={chooser}
            type="file"
            multiple
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="knowledge-file-input"
            onChange={(event) => {
              const chosen = [...(event.target.files ?? [])];
              event.target.value = "";
              if (chosen.length > 0) startUploads(chosen);
            }}
          />
          <Button onClick={() => chooser.current?.click()}>
            <Upload aria-hidden="true" />
            Upload files
          </Button>
        </div>
      </div>

      {status.data && !status.data.semantic ? (
        <p data-testid="knowledge-full-text-only" className="rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
          {FULL_TEXT_ONLY}
        </p>
      ) : null}

      {storage ? <StorageMeters storage={storage} /> : null}

      <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
        {/* Phones: a select. */}
        <div className="flex items-center gap-2 md:hidden">
          <label htmlFor="knowledge-collection-select" className="sr-only">
            Collection
          </label>
          <NativeSelect
            id="knowledge-collection-select"
            value={selected === null ? "" : String(selected)}
            onChange={(event) => setSelected(event.target.value === "" ? null : Number(event.target.value))}
            className="flex-1"
          >
            <option value="">All files</option>
            {list.map((collection) => (
              <option key={collection.id} value={collection.id}>
                {collection.name} ({collection.fileCount})
              </option>
            ))}
          </NativeSelect>
          <Button variant="outline" size="icon" aria-label="New collection" onClick={() => setDialog({ kind: "newCollection" })}>
            <FolderPlus aria-hidden="true" />
          </Button>
        </div>

        {/* Desktop: the list on the left. */}
        <nav aria-label="Collections" className="hidden content-start gap-1 md:grid">
          <CollectionButton label="All files" active={selected === null} onClick={() => setSelected(null)} />
          {list.map((collection) => (
            <div key={collection.id} className="group flex items-center gap-1">
              <CollectionButton
                label={collection.name}
                count={collection.fileCount}
                active={selected === collection.id}
                onClick={() => setSelected(collection.id)}
              />
              <CollectionMenu
                collection={collection}
                onRename={() => setDialog({ kind: "renameCollection", collection })}
                onDelete={() => setDialog({ kind: "deleteCollection", collection })}
              />
            </div>
          ))}
          <Button variant="ghost" className="justify-start text-muted-foreground" onClick={() => setDialog({ kind: "newCollection" })}>
            <FolderPlus aria-hidden="true" />
            New collection
          </Button>
        </nav>

        <section aria-label={current ? current.name : "All files"} className="grid content-start gap-3">
          <div className="flex min-h-8 items-center justify-between gap-2">
            <h2 className="truncate text-lg font-semibold">{current ? current.name : "All files"}</h2>
            {current ? (
              <div className="flex shrink-0 items-center gap-1">
                {/* A new chat with this collection chosen in its composer (decision 066). */}
                <Button asChild variant="outline" size="sm">
                  <Link href={askCollectionPath(current.id)}>
                    <MessageSquare aria-hidden="true" />
                    Ask this collection
                  </Link>
                </Button>
                <div className="md:hidden">
                  <CollectionMenu
                    collection={current}
                    onRename={() => setDialog({ kind: "renameCollection", collection: current })}
                    onDelete={() => setDialog({ kind: "deleteCollection", collection: current })}
                  />
                </div>
              </div>
            ) : null}
          </div>

          {uploads.length > 0 ? (
            <ul aria-label="Uploads" className="grid gap-2">
              {uploads.map((item) => (
                <li
                  key={item.key}
                  data-testid="knowledge-upload"
                  className={cn(
                    "grid gap-1.5 rounded-lg border px-3 py-2 text-sm",
                    item.error && "border-destructive/40 bg-destructive/5 dark:border-destructive/60 dark:bg-destructive/15",
                  )}
                >
                  <div className="flex items-center justify-between gap-2">
                    <span className="truncate font-medium">{item.name}</span>
                    {item.error ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setUploads((items) => items.filter((other) => other.key !== item.key))}
                      >
                        Dismiss
                      </Button>
                    ) : (
                      <span className="text-xs text-muted-foreground">{Math.round(item.share * 100)}%</span>
                    )}
                  </div>
                  {item.error ? (
                    <p role="alert" className="text-destructive dark:text-red-300">
                      {item.error}
                    </p>
                  ) : (
                    <div
                      role="progressbar"
                      aria-label={`Uploading ${item.name}`}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={Math.round(item.share * 100)}
                      className="h-1.5 overflow-hidden rounded-full bg-muted"
                    >
                      <div
                        className="h-full rounded-full bg-primary/70 transition-[width]"
                        style={{ width: `${Math.round(item.share * 100)}%` }}
                      />
                    </div>
                  )}
                </li>
              ))}
            </ul>
          ) : null}

          {files.isPending ? (
            <div className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner label="Loading files..." />
              <span aria-hidden="true">Loading files...</span>
            </div>
          ) : files.isError ? (
            <p role="alert" className="text-sm text-destructive">
              The files could not be read ({errorMessage(files.error)}).
            </p>
          ) : fileItems.length === 0 ? (
            <div
              data-testid="knowledge-empty"
              className="grid justify-items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center text-sm text-muted-foreground"
            >
              <Library aria-hidden="true" className="size-8" />
              <p>{current ? EMPTY_COLLECTION : EMPTY_LIBRARY}</p>
              <p className="text-xs">Drop files anywhere on this page.</p>
            </div>
          ) : (
            <ul aria-label="Files" className="divide-y rounded-xl border bg-card">
              {fileItems.map((file) => (
                <FileRow
                  key={file.id}
                  file={file}
                  collections={list}
                  retrying={retryFile.isPending && retryFile.variables === file.id}
                  onRetry={() =>
                    retryFile.mutate(file.id, { onError: (error) => notify.error("Could not retry the file", errorMessage(error)) })
                  }
                  onRename={() => setDialog({ kind: "renameFile", file })}
                  onMove={(collectionId) =>
                    updateFile.mutate(
                      { id: file.id, body: { collectionId } },
                      {
                        onSuccess: () => {
                          const where =
                            collectionId === null ? "out of its collection" : `to ${list.find((c) => c.id === collectionId)?.name}`;
                          notify.success(`Moved ${file.name} ${where}`);
                        },
                        onError: (error) => notify.error("Could not move the file", errorMessage(error)),
                      },
                    )
                  }
                  onDelete={() => setDialog({ kind: "deleteFile", file })}
                />
              ))}
            </ul>
          )}
          {fileItems.length > 0 ? <LoadMoreFooter list={files} shown={fileItems.length} noun={{ one: "file", many: "files" }} /> : null}
        </section>
      </div>

      {dragging ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 z-10 grid place-items-center rounded-xl border-2 border-dashed border-primary bg-primary/5 text-lg font-medium text-primary backdrop-blur-[1px]"
        >
          Drop files to upload{current ? ` to ${current.name}` : ""}
        </div>
      ) : null}

      {dialog?.kind === "newCollection" ? (
        <NameDialog
          title="New collection"
          description="Group files by topic, such as “Biology 101” or “Company handbook”."
          label="Name"
          initial=""
          maxLength={COLLECTION_NAME_MAX}
          submitLabel="Create"
          pending={createCollection.isPending}
          error={createCollection.error ? errorMessage(createCollection.error) : null}
          onClose={() => {
            createCollection.reset();
            setDialog(null);
          }}
          onSubmit={(name) =>
            createCollection.mutate(name, {
              onSuccess: (saved) => {
                setDialog(null);
                setSelected(saved.id);
              },
            })
          }
        />
      ) : null}
      {dialog?.kind === "renameCollection" ? (
        <NameDialog
          title="Rename collection"
          description="The new name shows wherever the collection is used."
          label="Name"
          initial={dialog.collection.name}
          maxLength={COLLECTION_NAME_MAX}
          submitLabel="Save"
          pending={renameCollection.isPending}
          error={renameCollection.error ? errorMessage(renameCollection.error) : null}
          onClose={() => {
            renameCollection.reset();
            setDialog(null);
          }}
          onSubmit={(name) => renameCollection.mutate({ id: dialog.collection.id, name }, { onSuccess: () => setDialog(null) })}
        />
      ) : null}
      {dialog?.kind === "deleteCollection" ? (
        <ConfirmDialog
          title={`Delete “${dialog.collection.name}”?`}
          message={
            dialog.collection.fileCount === 0
              ? "The collection is empty. This cannot be undone."
              : `Its ${dialog.collection.fileCount} ${dialog.collection.fileCount === 1 ? "file is" : "files are"} deleted too (${formatBytes(dialog.collection.size)}). This cannot be undone.`
          }
          pending={deleteCollection.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            deleteCollection.mutate(dialog.collection.id, {
              onSuccess: () => {
                if (selected === dialog.collection.id) setSelected(null);
                setDialog(null);
              },
              onError: (error) => notify.error("Could not delete the collection", errorMessage(error)),
            })
          }
        />
      ) : null}
      {dialog?.kind === "renameFile" ? (
        <NameDialog
          title="Rename file"
          description="Only the name shown changes; the file stays as it is."
          label="Name"
          initial={dialog.file.name}
          maxLength={FILE_NAME_MAX}
          submitLabel="Save"
          pending={updateFile.isPending}
          error={updateFile.error ? errorMessage(updateFile.error) : null}
          onClose={() => {
            updateFile.reset();
            setDialog(null);
          }}
          onSubmit={(name) => updateFile.mutate({ id: dialog.file.id, body: { name } }, { onSuccess: () => setDialog(null) })}
        />
      ) : null}
      {dialog?.kind === "deleteFile" ? (
        <ConfirmDialog
          title={`Delete “${dialog.file.name}”?`}
          message="The file and everything read from it are deleted. This cannot be undone."
          pending={deleteFile.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            deleteFile.mutate(dialog.file.id, {
              onSuccess: () => setDialog(null),
              onError: (error) => notify.error("Could not delete the file", errorMessage(error)),
            })
          }
        />
      ) : null}
    </div>
  );
}

function CollectionButton({ label, count, active, onClick }: { label: string; count?: number; active: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-current={active ? "true" : undefined}
      className={cn(
        "flex min-w-0 flex-1 items-center justify-between gap-2 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
        active ? "bg-accent font-medium text-accent-foreground" : "text-muted-foreground",
      )}
    >
      <span className="truncate">{label}</span>
      {count !== undefined ? <span className="shrink-0 text-xs tabular-nums">{count}</span> : null}
    </button>
  );
}

function CollectionMenu({ collection, onRename, onDelete }: { collection: Collection; onRename: () => void; onDelete: () => void }) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8 shrink-0" aria-label={`Actions for collection ${collection.name}`}>
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => navigate(askCollectionPath(collection.id))}>
          <MessageSquare aria-hidden="true" />
          Ask this collection
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onRename}>
          <Pencil aria-hidden="true" />
          Rename
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onDelete} className="text-destructive focus:text-destructive dark:text-red-300">
          <Trash2 aria-hidden="true" />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
