/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function TaskForm() {
  return (
    <Page title="TaskForm">
      <p>Not built yet.</p>
    </Page>
  );
}
