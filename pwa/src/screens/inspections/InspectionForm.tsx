/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function InspectionForm() {
  return (
    <Page title="InspectionForm">
      <p>Not built yet.</p>
    </Page>
  );
}
