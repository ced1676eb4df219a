/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function ApiKeys() {
  return (
    <Page title="ApiKeys">
      <p>Not built yet.</p>
    </Page>
  );
}
