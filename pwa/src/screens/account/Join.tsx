/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function Join() {
  return (
    <Page title="Join">
      <p>Not built yet.</p>
    </Page>
  );
}
