/**
 * Builds the installable app shell into pwa/dist, which the server serves with
 * an SPA fallback. `pnpm dev` proxies the Connect RPCs to a local server.
 */
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

const honey = "#e09b14";

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      // A new version waits until the user accepts it (src/components/UpdatePrompt.tsx).
      registerType: "prompt",
      injectRegister: false,
      includeAssets: ["icon.svg"],
      manifest: {
        name: "Hivekeep",
        short_name: "Hivekeep",
        description: "Keep track of your apiaries and hives, with or without signal.",
        lang: "en",
        start_url: "/",
        scope: "/",
        display: "standalone",
        theme_color: honey,
        background_color: "#fff8e8",
        icons: [
          { src: "icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
          { src: "icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      workbox: {
        globPatterns: ["**/*.{html,js,css,svg,png,webmanifest}"],
        navigateFallback: "index.html",
        // Server endpoints are never answered with the app shell.
        navigateFallbackDenylist: [/^\/hivekeep\.v1\./, /^\/healthz$/, /^\/readyz$/],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  server: {
    proxy: {
      "/hivekeep.v1.": { target: "http://127.0.0.1:8080", changeOrigin: true },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
  },
});
