/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function Members() {
  return (
    <Page title="Members">
      <p>Not built yet.</p>
    </Page>
  );
}
