/**
 * The overview (`/`): the figures, weight alerts, hives due for a visit, next tasks, recent
 * visits and the honey, all from one live query (queries.ts). A new account sees how to begin instead: an
 * apiary, then a hive.
 *
 * The query's last answer is kept, so coming back shows it at once while it runs again; the
 * page shows Loading only the first time after the app opens.
 */
import "./dashboard.css";

import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { LiveView, Loading, Page } from "../../ui/page.tsx";
import { AlertsCard } from "./AlertsCard.tsx";
import { DueCard } from "./DueCard.tsx";
import { Figures } from "./Figures.tsx";
import { GetStarted } from "./GetStarted.tsx";
import { HoneyCard } from "./HoneyCard.tsx";
import { dashboardMessages } from "./messages.ts";
import { type Dashboard as Data, useDashboard } from "./queries.ts";
import { RecentCard } from "./RecentCard.tsx";
import { TasksCard } from "./TasksCard.tsx";
import { WithdrawalsCard } from "./WithdrawalsCard.tsx";

export default function Dashboard() {
  const t = useMessages(dashboardMessages);
  const year = useNow().getUTCFullYear();
  const dashboard = useDashboard(year);
  return (
    <LiveView
      live={dashboard}
      back={paths.dashboard}
      loading={
        <Page title={t("title")}>
          <Loading />
        </Page>
      }
    >
      {(data) => <Overview data={data} year={year} />}
    </LiveView>
  );
}

function Overview(props: { readonly data: Data; readonly year: number }) {
  const t = useMessages(dashboardMessages);
  const { d, recent } = props.data;
  const starting = d.apiaries === 0 || d.hives === 0;
  return (
    <Page title={t("title")}>
      {starting && <GetStarted apiaries={d.apiaries} />}
      {d.hives > 0 && <Figures d={d} />}
      <AlertsCard alerts={props.data.alerts} />
      <WithdrawalsCard treatments={props.data.treatments} hives={props.data.hives} />
      <div className="dash__grid">
        {d.hives > 0 && <DueCard due={props.data.due} />}
        <div className="dash__col">
          {(d.hives > 0 || d.nextTasks.length > 0) && <TasksCard tasks={d.nextTasks} />}
          {(d.hives > 0 || recent.length > 0) && <RecentCard recent={recent} />}
        </div>
      </div>
      {(d.hives > 0 || d.honeyHistory.length > 0) && (
        <HoneyCard
          history={d.honeyHistory}
          year={props.year}
          perApiary={props.data.perApiary}
          queens={props.data.queens}
        />
      )}
    </Page>
  );
}
