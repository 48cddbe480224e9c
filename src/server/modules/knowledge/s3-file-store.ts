import { randomBytes } from "node:crypto";
import { AppError } from "../../lib/app-error.js";
import type { FileStore, StoredFileRef } from "./file-store.js";

/** Where the object store is (all of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY; S3_REGION). */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

type S3Module = typeof import("@aws-sdk/client-s3");

/**
 * A library file's bytes in an S3-compatible object store (issue 30, decision 035), through the official AWS SDK,
 * path-style addressing (MinIO, Ceph, s3rver...). Keys are `files/<userId>/<fileId>-<random>`: the random part keeps
 * a key unguessable and never reused. The SDK loads with the first call, as the providers' SDKs do. `put` runs inside
 * the file row's transaction, so an object whose row is then rolled back is removed by the service. Files stored
 * in the database before the store was set are read from there (`inDatabase`).
 */
export function s3FileStore(
  settings: S3Settings,
  inDatabase?: FileStore,
  log: (message: string, error: unknown) => void = () => {},
): FileStore {
  /** A store that cannot be reached or refuses is a 503 with words for the user; the cause goes to the log. */
  const unreachable = async <T>(call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      log("the object store failed", error);
      throw new AppError("UNAVAILABLE", "The file store could not be reached. Please try again in a moment.");
    }
  };
  let loaded: Promise<{ sdk: S3Module; client: InstanceType<S3Module["S3Client"]> }> | undefined;
  const s3 = () => {
    loaded ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: settings.endpoint,
        region: settings.region,
        forcePathStyle: true,
        maxAttempts: 2,
        // A store that stops answering ends the request (and frees its database connection) instead of holding it.
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
        credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      }),
    }));
    return loaded;
  };
  const getObject = async (file: StoredFileRef) => {
    if (!file.storageKey) throw new Error(`file ${file.id} has no object key`);
    const { sdk, client } = await s3();
    const answer = await unreachable(client.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: file.storageKey })));
    if (!answer.Body) throw new Error(`file ${file.id}'s object has no body`);
    return answer.Body;
  };
  return {
    kind: "s3",
    async put(_tx, file, bytes) {
      const key = `files/${file.userId}/${file.id}-${randomBytes(12).toString("hex")}`;
      const { sdk, client } = await s3();
      await unreachable(
        client.send(
          new sdk.PutObjectCommand({
            Bucket: settings.bucket,
            Key: key,
            Body: bytes,
            ContentLength: bytes.byteLength,
            ContentType: "application/octet-stream",
          }),
        ),
      );
      return { storage: "s3", storageKey: key };
    },
    async read(file: StoredFileRef) {
      // Files stored before the object store was set stay in the database.
      if (file.storage === "db" && inDatabase) return inDatabase.read(file);
      return (await getObject(file)).transformToByteArray();
    },
    async *stream(file: StoredFileRef) {
      if (file.storage === "db" && inDatabase) {
        yield* inDatabase.stream(file);
        return;
      }
      // In Node the object's body is a readable stream: its pieces as they come, pulled as the download takes them.
      yield* (await getObject(file)) as unknown as AsyncIterable<Uint8Array>;
    },
    async remove(files) {
      const keys = files.filter((file) => file.storage === "s3" && file.storageKey).map((file) => ({ Key: file.storageKey as string }));
      if (keys.length === 0) return;
      const { sdk, client } = await s3();
      // DeleteObjects takes at most 1,000 keys a call.
      for (let at = 0; at < keys.length; at += 1000) {
        const answer = await client.send(
          new sdk.DeleteObjectsCommand({ Bucket: settings.bucket, Delete: { Objects: keys.slice(at, at + 1000), Quiet: true } }),
        );
        // A quiet delete names only the keys it could not delete, without throwing: say so (the keys, never the secrets).
        const failed = answer.Errors ?? [];
        if (failed.length > 0) {
          log(
            `the object store kept ${failed.length} deleted file(s)`,
            new Error(failed.map((error) => `${error.Key}: ${error.Code ?? "error"}`).join("; ")),
          );
        }
      }
    },
  };
}
