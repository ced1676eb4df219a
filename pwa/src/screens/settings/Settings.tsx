/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function Settings() {
  return (
    <Page title="Settings">
      <p>Not built yet.</p>
    </Page>
  );
}
