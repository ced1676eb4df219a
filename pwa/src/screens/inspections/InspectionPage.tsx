/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function InspectionPage() {
  return (
    <Page title="InspectionPage">
      <p>Not built yet.</p>
    </Page>
  );
}
