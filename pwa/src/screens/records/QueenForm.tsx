/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function QueenForm() {
  return (
    <Page title="QueenForm">
      <p>Not built yet.</p>
    </Page>
  );
}
