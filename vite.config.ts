import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The web app lives in src/web and is built into dist/web, which the Fastify server serves.
export default defineConfig({
  root: "src/web",
  publicDir: "public",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
  },
  server: {
    port: 5173,
    // changeOrigin stays false so the API's same-origin check sees the dev server's own host.
    proxy: { "/api": { target: "http://127.0.0.1:3000", changeOrigin: false } },
  },
});
