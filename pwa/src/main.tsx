import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { languageReady } from "./i18n.ts";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

// The first render waits for the chosen language's words (French, Italian, Spanish, Polish load
// on demand), so the first screen never shows in English and then switches.
void languageReady().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
