// The baseline of bench/auth-read: a bare Fastify answering {hello: "world"}.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
