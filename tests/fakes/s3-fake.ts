// A local S3-compatible object store (s3rver, on 127.0.0.1, port 0, files in a temporary folder) for the library's
// S3 file store (issue 30). The app reaches it with the official AWS SDK, path-style, as it would MinIO or AWS.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export const FAKE_S3_ACCESS_KEY_ID = "S3RVER";
export const FAKE_S3_SECRET_ACCESS_KEY = "S3RVER";

export interface S3Fake {
  /** http://127.0.0.1:PORT */
  url: string;
  bucket: string;
  /** The app's S3_* variables for this store. */
  env: Record<string, string>;
  /** The keys stored in the bucket now, sorted. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3Fake(options: { bucket?: string } = {}): Promise<S3Fake> {
  const bucket = options.bucket ?? "library";
  const directory = mkdtempSync(path.join(tmpdir(), "s3-fake-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address: AddressInfo = await server.run();
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    bucket,
    env: {
      S3_ENDPOINT: url,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: FAKE_S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: FAKE_S3_SECRET_ACCESS_KEY,
    },
    async keys() {
      const { S3Client, ListObjectsV2Command } = await import("@aws-sdk/client-s3");
      const client = new S3Client({
        endpoint: url,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { accessKeyId: FAKE_S3_ACCESS_KEY_ID, secretAccessKey: FAKE_S3_SECRET_ACCESS_KEY },
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      client.destroy();
      return (listed.Contents ?? []).map((object) => object.Key ?? "").sort();
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
