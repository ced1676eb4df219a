/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function HivePage() {
  return (
    <Page title="HivePage">
      <p>Not built yet.</p>
    </Page>
  );
}
