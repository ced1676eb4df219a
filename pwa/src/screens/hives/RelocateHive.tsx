/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function RelocateHive() {
  return (
    <Page title="RelocateHive">
      <p>Not built yet.</p>
    </Page>
  );
}
