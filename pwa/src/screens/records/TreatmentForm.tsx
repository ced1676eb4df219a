/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function TreatmentForm() {
  return (
    <Page title="TreatmentForm">
      <p>Not built yet.</p>
    </Page>
  );
}
