import { defineMessages } from "../../i18n.ts";

export const settingsMessages = defineMessages("settings", {
  en: {
    title: "Settings",
    // Account
    account: "Account",
    email: "Email",
    organization: "Organization",
    role: "Role",
    roleOwner: "Owner",
    roleMember: "Member",
    roleDemo: "Demo visitor (read-only)",
    logOut: "Log out",
    leaveDemo: "Leave the demo",
    loggingOut: "Logging out…",
    logOutPending_one:
      "{{count}} change has not been synced yet. It stays on this device and syncs when {{email}} logs in here again.",
    logOutPending_other:
      "{{count}} changes have not been synced yet. They stay on this device and sync when {{email}} logs in here again.",
    logOutAnyway: "Log out anyway",
    cancel: "Cancel",
    // Organizations
    organizations: "Your organizations",
    organizationsText:
      "You belong to several organizations. Each keeps its own data on this device.",
    current: "Current",
    switchTo: "Switch to {{name}}",
    switching: "Switching…",
    switchPending_one:
      "{{count}} change for {{organization}} is waiting. It stays on this device and syncs when you switch back.",
    switchPending_other:
      "{{count}} changes for {{organization}} are waiting. They stay on this device and sync when you switch back.",
    needsNetwork: "This needs a connection to the server. You are offline.",
    // Links
    apiKeys: "API keys",
    apiKeysText: "Keys for devices such as hive scales that send data to Hivekeep.",
    members: "Members",
    membersText: "Invite people to your organization and manage who belongs to it.",
    // Device
    device: "This device",
    storageUsed: "{{used}} used of {{quota}} available",
    storageUnknown: "This browser does not say how much storage is used.",
    persisted: "Kept safe: the browser will not clear Hivekeep's data on its own.",
    notPersisted:
      "Not protected: when space runs low, the browser may clear Hivekeep's data, including changes not yet synced.",
    persist: "Keep data on this device",
    photoKeepLabel: "Keep photos of visits from the last",
    photoKeepUnit: "days",
    photoKeepHint:
      "They are fetched after each sync and stay on this device for use offline. Older photos are fetched when you open them. 0: none kept ahead; empty: 30 days.",
    persistDenied:
      "The browser did not allow it. Installing Hivekeep on the home screen, or using it more often, usually helps.",
    pending_one: "{{count}} change waiting to sync",
    pending_other: "{{count}} changes waiting to sync",
    allSynced: "Every change is synced.",
    version: "Version {{version}}",
    singleUser: "This Hivekeep runs without accounts: everything here belongs to you.",
    // API keys
    apiKeysIntro:
      "An API key lets a device, such as a hive scale, send data to Hivekeep as you. Treat it like a password.",
    keysDemo: "The demo has no API keys. Create an account to make your own.",
    keysSingleUser:
      "API keys are for servers with accounts (HIVEKEEP_AUTH=login). This one runs without: devices post without a key.",
    keyName: "Key name",
    keyNameHint: "For example the device's name: “Scale 1”.",
    needKeyName: "Give the key a name.",
    createKey: "Create key",
    creatingKey: "Creating…",
    newKey: "New API key “{{name}}”",
    keyOnce: "Copy it now: it will not be shown again.",
    secret: "API key",
    copy: "Copy",
    copied: "Copied to the clipboard.",
    copyFailed: "Copying did not work here. Select the text above and copy it.",
    done: "Done",
    keys: "Your keys",
    keysAll: "Keys of the organization",
    noKeys: "No API keys yet.",
    keyPrefix: "Starts with {{prefix}}…",
    keyCreated: "Created {{date}}",
    keyUsed: "Last used {{date}}",
    keyNeverUsed: "Never used",
    revoke: "Revoke",
    revokeNamed: "Revoke {{name}}",
    revokeConfirm: "Revoke “{{name}}”? Devices using it stop working at once.",
    loading: "Loading…",
    retry: "Try again",
    // Members
    membersIntro: "Everyone here shares the organization's apiaries, hives and records.",
    ownersOnly: "Only owners manage members. Ask an owner to invite someone.",
    you: "you",
    joined: "Joined {{date}}",
    remove: "Remove",
    removeNamed: "Remove {{email}}",
    removeConfirm:
      "Remove {{email}} from {{organization}}? Their sessions and API keys stop working at once.",
    invite: "Invite someone",
    inviteEmail: "Email",
    inviteRole: "Role",
    inviteRoleHint: "Owners can also invite and remove members.",
    createInvitation: "Create invitation",
    inviting: "Creating…",
    invitationFor: "Invitation for {{email}}",
    invitationLink: "Invitation link",
    invitationText:
      "Send this link to {{email}}. It works once, only for this email address, until {{date}}.",
    invitations: "Open invitations",
    noInvitations: "No open invitations.",
    invitationExpires: "Valid until {{date}}",
    invitedBy: "Invited by {{email}}",
    revokeInvitationNamed: "Revoke invitation for {{email}}",
    revokeInvitationConfirm: "Revoke the invitation for {{email}}? Its link stops working at once.",
    keep: "Keep",
    organizationKeys: "API keys in the organization",
    keyOf: "Belongs to {{email}}",
  },
});
