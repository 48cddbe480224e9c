import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { sessionDataScript } from "../../shared/contracts/session-data.js";
import { SHARE_TOKEN_PATTERN } from "../../shared/contracts/sharing.js";
import { sidebarFirstReadUrls } from "../../shared/contracts/sidebar-first-reads.js";
import type { PublicUser } from "../../shared/contracts/user.js";
import { isPagePath, opensChat } from "../../shared/page-paths.js";
import { PRERENDERED_DIR, SSR_DIR } from "../../shared/prerender.js";
import { SHARE_PAGE, type SharePageData, sharedChatNoscript, sharedChatScript, shareHead } from "../../shared/share-page.js";
import { sessionToken } from "../lib/access.js";
import { PrerenderedPages, type ReadPublicSettings } from "./prerendered-pages.js";
import { type LivePage, LivePageRenderer } from "./server-rendered-pages.js";

/**
 * The chat page's preload hints (issue 29): the sidebar's first reads, asked for by the browser as soon as the page's
 * headers arrive, while its code loads; the app's own reads (same address, credentials and mode) take these answers.
 * Not the session probe: preloading it too put the warm first render at 430 ms instead of 180 ms (quiet machine,
 * bench:sidebar; decision 032).
 */
const CHAT_PRELOAD_LINKS = sidebarFirstReadUrls()
  .map((url) => `<${url}>; rel=preload; as=fetch; crossorigin=use-credentials`)
  .join(", ");

/** The sign-in screens (`paths.auth`, `paths.login` in web/lib/paths.ts), drawn by the small app for visitors. */
const SIGN_IN_PATHS = new Set(["/auth", "/login"]);

/** A certificate's verification page (`paths.certificateRoute`): drawn by the small app for visitors, never indexed. */
const CERTIFICATE_PAGE = /^\/certificates\/[^/]+$/;
const NOINDEX_META = '<meta name="robots" content="noindex" />';

export interface StaticWebOptions {
  /** The public settings, as the public API answers them (the live values of the prerendered pages). */
  readPublicSettings: ReadPublicSettings;
  /** A live share link's snapshot, read from the database on every call (null: revoked, unknown, owner disabled). */
  findShare?: (token: string) => Promise<SharePageData | null>;
  /** Whether a certificate with this code was issued (revoked too): its page answers 404 otherwise (decision 060). */
  certificateIssued?: (code: string) => Promise<boolean>;
  /** Pages rendered for visitors at request time with live data (the catalogue, issue 33; decision 044). */
  livePages?: readonly LivePage[];
  /** The user a session token signs in, as the session probe shows them (null: no live session). */
  sessionUser: (token: string) => Promise<PublicUser | null>;
}

/**
 * Serves the built web app (dist/web). Hashed assets are cached for a year; every other GET that is not an
 * API call gets index.html so the client router can draw the page, with a 404 for an address no page has
 * (shared/page-paths.ts) so the app draws its not-found screen. A public page
 * (shared/public-pages.ts) asked for by a visitor who is not signed in gets its prerendered HTML instead,
 * with the live values and the boot data (issue 13); a signed-in user gets the app shell there too.
 */
export const staticWebPlugin = fp<StaticWebOptions>(async (app: FastifyInstance, options) => {
  const root = app.ctx.config.webDist;
  if (!existsSync(path.join(root, "index.html"))) {
    app.log.warn(`No built web app in ${root}; run "npm run build" to serve the pages.`);
    return;
  }
  let prerendered: PrerenderedPages | null = null;
  try {
    prerendered = PrerenderedPages.load(root, options.readPublicSettings);
  } catch (error) {
    app.log.error({ err: error }, `The prerendered pages in ${root} could not be read; serving the app shell instead.`);
  }
  const livePages = options.livePages ?? [];
  let liveRenderer: LivePageRenderer | null = null;
  try {
    liveRenderer = prerendered && livePages.length > 0 ? LivePageRenderer.load(root) : null;
  } catch (error) {
    app.log.error({ err: error }, `The live pages' renderer in ${root} could not be read; serving the app shell instead.`);
  }
  if (prerendered) {
    const pages = prerendered;
    // An admin write may have changed the product name, the price or a switch: no page shows the old one.
    app.addHook("onResponse", (request, reply, done) => {
      if (request.method !== "GET" && request.method !== "HEAD" && reply.statusCode < 400 && request.routeOptions.config.access === "admin")
        pages.invalidate();
      done();
    });
  }

  /** The user of a live session (the cookie alone proves nothing: it may have expired or been revoked), or null. */
  const sessionUser = async (request: FastifyRequest): Promise<PublicUser | null> => {
    const token = sessionToken(request);
    return token ? options.sessionUser(token) : null;
  };
  const signedIn = async (request: FastifyRequest): Promise<boolean> => (await sessionUser(request)) !== null;
  /** index.html, read once: the chat page adds the session block to it on every request. */
  let appShell: Promise<string> | undefined;

  /** Whether the certificate page's code was issued; true when that cannot be read now (the page says it failed). */
  const certificateIssued = async (request: FastifyRequest, file: string): Promise<boolean> => {
    if (!options.certificateIssued) return true;
    try {
      return await options.certificateIssued(file.slice("/certificates/".length));
    } catch (error) {
      request.log.error({ err: error }, "reading a certificate for its page failed; answered 200");
      return true;
    }
  };

  /**
   * /chat and /chat/{id} for a live session: the app shell with the session probe's answer in it, so the app draws
   * the signed-in shell without asking (decision 052), and the sidebar's first reads named in the preload hints.
   * The page carries the user, so it is never stored (no-store: no cache, nor the back button, shows it again later).
   */
  const chatPage = async (reply: FastifyReply, user: PublicUser) => {
    reply.header("Cache-Control", "no-store");
    reply.header("Link", CHAT_PRELOAD_LINKS);
    appShell ??= readFile(path.join(root, "index.html"), "utf8");
    const shell = await appShell.catch((error: unknown) => {
      appShell = undefined;
      throw error;
    });
    return reply.type("text/html; charset=utf-8").send(shell.replace("</body>", () => `${sessionDataScript(user)}\n  </body>`));
  };

  /**
   * /auth, /login and a certificate page for a visitor without a session: the small app's page with the live values, which draws
   * the sign-in screens without the signed-in app's code (decision 017); null when the app shell is the answer.
   */
  const signInPage = async (request: FastifyRequest): Promise<string | null> => {
    if (!prerendered) return null;
    try {
      if (await signedIn(request)) return null;
      return await prerendered.renderShell();
    } catch (error) {
      request.log.error({ err: error }, "serving the sign-in page from the small app failed; sent the app shell");
      return null;
    }
  };

  /** The prerendered page for this request, or null when the app shell is the answer. */
  const prerenderedPage = async (request: FastifyRequest, pathname: string): Promise<string | null> => {
    if (!prerendered?.has(pathname)) return null;
    try {
      if (await signedIn(request)) return null;
      return await prerendered.render(pathname);
    } catch (error) {
      // The shell still works: the browser draws the page from its own reads.
      request.log.error({ err: error }, `serving the prerendered ${pathname} failed; sent the app shell`);
      return null;
    }
  };

  /**
   * /share/:token (issue 33, decision 043), written at request time from the database (a revoked link is a 404 at once,
   * on every instance): the app's page with the chat's title and first lines in the head, noindex, the snapshot as data
   * and as plain text; the app draws the messages with the chat's Markdown, for visitors and signed-in users alike (not
   * the public pages' small app, whose first screens must stay under their budget). A link that does not work gets the
   * site's not-found page with a 404.
   */
  const sharePage = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
    reply.header("X-Robots-Tag", "noindex");
    reply.header("Cache-Control", "no-store");
    reply.header("Vary", "Cookie");
    const shared = SHARE_TOKEN_PATTERN.test(token) && options.findShare ? await options.findShare(token) : null;
    if (!shared) return reply.code(404).sendFile("index.html");
    const [shell, settings] = await Promise.all([
      readFile(path.join(root, "index.html"), "utf8"),
      options.readPublicSettings().catch((error: unknown) => {
        request.log.error({ err: error }, "reading the product name for a shared page failed");
        return null;
      }),
    ]);
    const head = shareHead(shared, settings?.platformSettings.platformName ?? "Lumora");
    const html = shell
      .replace(/<title>[^<]*<\/title>/, () => head.title)
      .replace(/<meta name="description"[^>]*>/, "")
      .replace("</head>", () => `    ${head.meta}\n  </head>`)
      .replace("</body>", () => `${sharedChatScript(shared)}\n${sharedChatNoscript(shared)}\n  </body>`);
    return reply.type("text/html; charset=utf-8").send(html);
  };

  /**
   * A live page (the catalogue) for a visitor without a session: rendered now with its data, a 301 for an old address,
   * or null when the app shell is the answer (a signed-in user, no renderer in this build, or a failure, logged).
   */
  const livePage = async (
    request: FastifyRequest,
    page: LivePage,
    pathname: string,
    search: string,
  ): Promise<{ status: number; html: string } | { location: string } | null> => {
    if (!prerendered || !liveRenderer) return null;
    try {
      if (await signedIn(request)) return null;
      const boot = await prerendered.settings();
      const answer = await page.load(pathname, new URLSearchParams(search), boot);
      if (answer.kind === "redirect") return { location: answer.location };
      const html = await liveRenderer.render(pathname, search, { ...boot, reads: answer.reads }, answer.head);
      return { status: answer.status, html };
    } catch (error) {
      request.log.error({ err: error }, `rendering ${pathname} failed; sent the app shell`);
      return null;
    }
  };

  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The prerendered pages hold tokens, not values: they go out only through the route below. public.html is
    // their template (the public pages' app, empty), never a page of its own.
    // The live pages' render bundle (SSR_DIR) is the server's, never the browser's.
    allowedPath: (pathname) =>
      !pathname.startsWith(`/${PRERENDERED_DIR}/`) && !pathname.startsWith(`/${SSR_DIR}/`) && pathname !== "/public.html",
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  app.get("/*", async (request, reply) => {
    if (request.url.startsWith("/api/") || request.url === "/api") {
      return reply.status(404).send({ message: `No such endpoint: GET ${request.url.split("?")[0]}` });
    }
    const file = request.url.split("?")[0] ?? "/";
    if (/\.[a-z0-9]+$/i.test(file) && file !== "/index.html") {
      return reply.status(404).type("text/plain").send("Not found");
    }
    reply.header("Cache-Control", "no-cache");
    const shareToken = SHARE_PAGE.exec(file)?.[1];
    if (shareToken !== undefined) return sharePage(request, reply, shareToken);
    const certificatePage = CERTIFICATE_PAGE.test(file);
    if (certificatePage) {
      reply.header("X-Robots-Tag", "noindex");
      // The page says "Certificate not found" itself; the status says it to whoever reads only that (decision 060).
      if (!(await certificateIssued(request, file))) reply.code(404);
    }
    if (prerendered && (SIGN_IN_PATHS.has(file) || certificatePage)) {
      reply.header("Vary", "Cookie");
      const html = await signInPage(request);
      if (html !== null) {
        return reply.type("text/html; charset=utf-8").send(certificatePage ? html.replace("</head>", `${NOINDEX_META}</head>`) : html);
      }
    }
    const live = livePages.find((page) => page.pattern.test(file));
    if (live) {
      reply.header("Vary", "Cookie");
      const answer = await livePage(request, live, file, request.url.slice(file.length + 1));
      if (answer && "location" in answer) return reply.redirect(answer.location, 301);
      if (answer) return reply.code(answer.status).type("text/html; charset=utf-8").send(answer.html);
    }
    if (prerendered?.has(file)) {
      // The answer depends on the session cookie: a shared cache must not hand one visitor's to another.
      reply.header("Vary", "Cookie");
      const html = await prerenderedPage(request, file);
      if (html !== null) return reply.type("text/html; charset=utf-8").send(html);
    }
    // An address no page has is a 404 (issue 29), with the app all the same: it draws the not-found screen in the
    // site's header and footer (the app shell for a signed-in user).
    if (!isPagePath(file)) reply.code(404);
    else if (opensChat(file)) {
      reply.header("Vary", "Cookie");
      // Only for a live session: a visitor's preloads would answer 401 (and the page sends them to sign in).
      const user = await sessionUser(request).catch(() => null);
      if (user) return chatPage(reply, user);
    }
    return reply.sendFile("index.html");
  });
});
