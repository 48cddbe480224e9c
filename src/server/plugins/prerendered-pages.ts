import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { paymentSettingsPublicSchema, platformSettingsPublicSchema } from "../../shared/contracts/public-content.js";
import {
  type BootData,
  bootDataScript,
  fillLiveValues,
  PRERENDER_MANIFEST,
  PRERENDERED_DIR,
  type PrerenderManifest,
  variantKey,
  variantOf,
} from "../../shared/prerender.js";

/** The public settings as `GET /api/platform-settings` and `GET /api/payment-settings` answer them. */
export type ReadPublicSettings = () => Promise<BootData>;

/** The filled shell's key among a snapshot's filled pages (no prerendered file has this name). */
const SHELL_KEY = "/public.html";

/** How long the live values are reused: a few seconds, so a busy landing page costs no database read per visit. */
const SETTINGS_TTL_MS = 5_000;

interface Snapshot {
  expires: number;
  boot: Promise<BootData>;
  /** Filled pages of this snapshot, by file. */
  filled: Map<string, string>;
}

/**
 * The prerendered public pages of a web build (scripts/prerender.ts), served with the live values: the
 * variant of the current switches, the tokens replaced by the product name, price and support email, and
 * the boot data the browser hydrates with. Read once at start; null when the build has none (a plain
 * `vite build`, a dev build), and every page is then the plain app shell.
 */
export class PrerenderedPages {
  private snapshot: Snapshot | null = null;

  private constructor(
    private readonly pages: Map<string, Map<string, { file: string; html: string }>>,
    private readonly readSettings: ReadPublicSettings,
    /** public.html: the small app with an empty #root, for the pages it draws in the browser (decision 017). */
    private readonly shell: string | null,
  ) {}

  static load(webDist: string, readSettings: ReadPublicSettings): PrerenderedPages | null {
    const dir = path.join(webDist, PRERENDERED_DIR);
    const manifestPath = path.join(dir, PRERENDER_MANIFEST);
    if (!existsSync(manifestPath)) return null;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as PrerenderManifest;
    const files = new Map<string, string>();
    const pages = new Map<string, Map<string, { file: string; html: string }>>();
    for (const [pagePath, page] of Object.entries(manifest.pages)) {
      const variants = new Map<string, { file: string; html: string }>();
      for (const [key, file] of Object.entries(page.variants)) {
        const filePath = path.join(dir, path.basename(file));
        if (!files.has(file) && existsSync(filePath)) files.set(file, readFileSync(filePath, "utf8"));
        const html = files.get(file);
        if (html !== undefined) variants.set(key, { file, html });
      }
      if (variants.size > 0) pages.set(pagePath, variants);
    }
    const shellPath = path.join(webDist, "public.html");
    return new PrerenderedPages(pages, readSettings, existsSync(shellPath) ? readFileSync(shellPath, "utf8") : null);
  }

  /** A prerendered page at exactly this path (no query, no trailing slash)? */
  has(pathname: string): boolean {
    return this.pages.has(pathname);
  }

  /** The page with today's values, or null (no such page, or no file for this variant). */
  async render(pathname: string): Promise<string | null> {
    const variants = this.pages.get(pathname);
    if (!variants) return null;
    const snapshot = this.current();
    const boot = await snapshot.boot;
    const page = variants.get(variantKey(variantOf(boot)));
    if (!page) return null;
    let html = snapshot.filled.get(page.file);
    if (html === undefined) {
      html = fillLiveValues(page.html, boot).replace("</body>", () => `${bootDataScript(boot)}\n  </body>`);
      snapshot.filled.set(page.file, html);
    }
    return html;
  }

  /**
   * The small app's page with today's values and an empty #root, which the browser draws (the sign-in screens,
   * decision 017); null when the build has no public.html.
   */
  async renderShell(): Promise<string | null> {
    if (this.shell === null) return null;
    const snapshot = this.current();
    const boot = await snapshot.boot;
    let html = snapshot.filled.get(SHELL_KEY);
    if (html === undefined) {
      html = this.shell.replace("</body>", () => `${bootDataScript(boot)}\n  </body>`);
      snapshot.filled.set(SHELL_KEY, html);
    }
    return html;
  }

  /** Today's public settings (the boot data), from the same few-seconds snapshot the pages use. */
  settings(): Promise<BootData> {
    return this.current().boot;
  }

  /** After an admin changed something: the next page reads the values again. */
  invalidate(): void {
    this.snapshot = null;
  }

  private current(): Snapshot {
    const now = Date.now();
    if (this.snapshot && this.snapshot.expires > now) return this.snapshot;
    const snapshot: Snapshot = {
      expires: now + SETTINGS_TTL_MS,
      // Exactly the public API's answers: the contracts' schemas keep their keys and only those.
      boot: this.readSettings().then((boot) => ({
        platformSettings: platformSettingsPublicSchema.parse(boot.platformSettings),
        paymentSettings: paymentSettingsPublicSchema.parse(boot.paymentSettings),
      })),
      filled: new Map(),
    };
    // A failed read is not kept: the next request tries again.
    snapshot.boot.catch(() => {
      if (this.snapshot === snapshot) this.snapshot = null;
    });
    this.snapshot = snapshot;
    return snapshot;
  }
}
