/** Placeholder until this screen is built. */
import { Page } from "../../ui/page.tsx";

export default function Dashboard() {
  return (
    <Page title="Dashboard">
      <p>Not built yet.</p>
    </Page>
  );
}
