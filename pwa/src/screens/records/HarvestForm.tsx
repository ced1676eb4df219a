/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function HarvestForm() {
  return (
    <Page title="HarvestForm">
      <p>Not built yet.</p>
    </Page>
  );
}
