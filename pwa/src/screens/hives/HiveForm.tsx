/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function HiveForm() {
  return (
    <Page title="HiveForm">
      <p>Not built yet.</p>
    </Page>
  );
}
