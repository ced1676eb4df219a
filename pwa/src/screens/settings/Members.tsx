/**
 * Members of the organization (owners): who belongs, since when, with which role; remove
 * someone (not yourself); invite by email with a role, which gives a link to send them
 * (`/join#<token>`); the invitations still open, to revoke one; and every API key of the
 * organization with whose it is. Members live on the server, so this screen needs the network.
 */
import "./members.css";
import { type ApiKey, type Invitation, type Member, Role } from "@hivekeep/proto";
import { type FormEvent, useState } from "react";
import { authClient } from "../../api.ts";
import { useAppSession } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { SelectField, TextField } from "../../ui/forms.tsx";
import { Card, ConfirmButton, Empty, ErrorText } from "../../ui/page.tsx";
import { looksLikeEmail } from "../account/errors.ts";
import { authErrorMessages } from "../account/messages.ts";
import { useAuthCall } from "../account/useAuthError.ts";
import { KeyRow } from "./ApiKeys.tsx";
import { settingsMessages } from "./messages.ts";
import {
  CopyField,
  ServerFormFooter,
  ServerListView,
  ServerScreen,
  useServerList,
} from "./parts.tsx";

export default function Members() {
  const t = useMessages(settingsMessages);
  const session = useAppSession();
  const allowed = session.loginMode && session.owner && !session.readOnly;
  const members = useServerList<Member>(
    async () => (await authClient.listMembers({})).members,
    allowed,
  );
  const invitations = useServerList<Invitation>(
    async () => (await authClient.listInvitations({})).invitations,
    allowed,
  );
  const keys = useServerList<ApiKey>(async () => (await authClient.listApiKeys({})).keys, allowed);
  const online = members.online;
  const dropKey = (id: string) => keys.update((list) => list.filter((k) => k.id !== id));

  return (
    <ServerScreen
      title={t("members")}
      intro={t("membersIntro")}
      unavailable={allowed ? undefined : session.loginMode ? t("ownersOnly") : t("singleUser")}
      online={online}
    >
      <Card title={session.organization}>
        <ServerListView list={members}>
          {(items) => (
            <ul className="list">
              {items.map((m) => (
                <MemberRow
                  key={m.user?.id}
                  member={m}
                  online={online}
                  onRemoved={() => {
                    members.update((list) => list.filter((x) => x.user?.id !== m.user?.id));
                    // Their keys and the invitations for them ended with them.
                    void keys.load();
                    void invitations.load();
                  }}
                />
              ))}
            </ul>
          )}
        </ServerListView>
      </Card>
      <Invite disabled={!online} onCreated={() => void invitations.load()} />
      <Card title={t("invitations")}>
        <ServerListView list={invitations}>
          {(items) =>
            items.length === 0 ? (
              <Empty>{t("noInvitations")}</Empty>
            ) : (
              <ul className="list">
                {items.map((i) => (
                  <InvitationRow
                    key={i.id}
                    invitation={i}
                    online={online}
                    onRevoked={() =>
                      invitations.update((list) => list.filter((x) => x.id !== i.id))
                    }
                  />
                ))}
              </ul>
            )
          }
        </ServerListView>
      </Card>
      <Card title={t("organizationKeys")}>
        <ServerListView list={keys}>
          {(items) =>
            items.length === 0 ? (
              <Empty>{t("noKeys")}</Empty>
            ) : (
              <ul className="list">
                {items.map((k) => (
                  <KeyRow key={k.id} apiKey={k} online={online} onRevoked={() => dropKey(k.id)} />
                ))}
              </ul>
            )
          }
        </ServerListView>
      </Card>
    </ServerScreen>
  );
}

function MemberRow(props: { member: Member; online: boolean; onRemoved: () => void }) {
  const t = useMessages(settingsMessages);
  const fmt = useFormat();
  const session = useAppSession();
  const m = props.member;
  const email = m.user?.email ?? "";
  const self = email.toLowerCase() === session.email.toLowerCase();
  const remove = useAuthCall(
    async () => {
      await authClient.removeMember({ userId: m.user?.id ?? "" });
      props.onRemoved();
    },
    { untilGone: true },
  );

  return (
    <li className="list__item list__row member">
      <div className="member__about">
        <span className="list__title">
          {email}
          {self && <span className="muted"> ({t("you")})</span>}
        </span>
        <span className="list__meta">
          <span>{m.role === Role.OWNER ? t("roleOwner") : t("roleMember")}</span>
          <span>{t("joined", { date: fmt.date(m.joinedAt) })}</span>
        </span>
        <ErrorText text={remove.error} />
      </div>
      {!self && (
        <ConfirmButton
          label={t("remove")}
          ariaLabel={t("removeNamed", { email })}
          confirm={t("removeConfirm", { email, organization: session.organization })}
          confirmLabel={t("remove")}
          keepLabel={t("keep")}
          disabled={remove.busy || !props.online}
          onConfirm={() => void remove.run()}
        />
      )}
    </li>
  );
}

/** An open invitation: for whom, which role, until when, who issued it; Revoke. */
function InvitationRow(props: { invitation: Invitation; online: boolean; onRevoked: () => void }) {
  const t = useMessages(settingsMessages);
  const fmt = useFormat();
  const i = props.invitation;
  const revoke = useAuthCall(
    async () => {
      await authClient.revokeInvitation({ id: i.id });
      props.onRevoked();
    },
    { untilGone: true },
  );

  return (
    <li className="list__item list__row member">
      <div className="member__about">
        <span className="list__title">{i.email}</span>
        <span className="list__meta">
          <span>{i.role === Role.OWNER ? t("roleOwner") : t("roleMember")}</span>
          <span>{t("invitationExpires", { date: fmt.date(i.expiresAt) })}</span>
          {i.invitedBy && <span>{t("invitedBy", { email: i.invitedBy.email })}</span>}
        </span>
        <ErrorText text={revoke.error} />
      </div>
      <ConfirmButton
        label={t("revoke")}
        ariaLabel={t("revokeInvitationNamed", { email: i.email })}
        confirm={t("revokeInvitationConfirm", { email: i.email })}
        confirmLabel={t("revoke")}
        keepLabel={t("keep")}
        disabled={revoke.busy || !props.online}
        onConfirm={() => void revoke.run()}
      />
    </li>
  );
}

function Invite(props: { disabled: boolean; onCreated: () => void }) {
  const t = useMessages(settingsMessages);
  const te = useMessages(authErrorMessages);
  const fmt = useFormat();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>(Role.MEMBER);
  const [invitation, setInvitation] = useState<
    { email: string; link: string; expires: string } | undefined
  >();
  const call = useAuthCall(async (address: string) => {
    const inv = (await authClient.createInvitation({ email: address, role })).invitation;
    if (inv) {
      setInvitation({
        email: inv.email,
        link: `${window.location.origin}${paths.join(inv.token)}`,
        expires: fmt.date(inv.expiresAt),
      });
      setEmail("");
      props.onCreated();
    }
  });
  const { busy, error } = call;

  function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!looksLikeEmail(address)) call.setError(te("invalidEmail"));
    else void call.run(address);
  }

  return (
    <Card title={t("invite")}>
      <form className="form" onSubmit={invite} noValidate>
        <div className="form__row">
          <TextField
            label={t("inviteEmail")}
            type="email"
            value={email}
            onChange={setEmail}
            autoComplete="off"
            maxLength={254}
            required
          />
          <SelectField
            label={t("inviteRole")}
            hint={t("inviteRoleHint")}
            value={role}
            onChange={setRole}
            options={[
              { value: Role.MEMBER, label: t("roleMember") },
              { value: Role.OWNER, label: t("roleOwner") },
            ]}
          />
        </div>
        <ServerFormFooter
          error={error}
          busy={busy}
          disabled={props.disabled}
          label={t("createInvitation")}
          busyLabel={t("inviting")}
        />
      </form>
      {invitation && (
        <section
          className="invitation"
          aria-label={t("invitationFor", { email: invitation.email })}
        >
          <h3 className="invitation__title">{t("invitationFor", { email: invitation.email })}</h3>
          <CopyField
            label={t("invitationLink")}
            value={invitation.link}
            hint={t("invitationText", { email: invitation.email, date: invitation.expires })}
          />
        </section>
      )}
    </Card>
  );
}
