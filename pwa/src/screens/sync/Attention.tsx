/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function Attention() {
  return (
    <Page title="Attention">
      <p>Not built yet.</p>
    </Page>
  );
}
