/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function TaskList() {
  return (
    <Page title="TaskList">
      <p>Not built yet.</p>
    </Page>
  );
}
