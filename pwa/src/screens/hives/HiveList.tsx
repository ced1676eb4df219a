/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function HiveList() {
  return (
    <Page title="HiveList">
      <p>Not built yet.</p>
    </Page>
  );
}
