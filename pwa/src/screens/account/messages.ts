import { defineMessages } from "../../i18n.ts";

export const accountMessages = defineMessages("account", {
  en: {
    welcome: "Hivekeep",
    tagline: "Keep track of your apiaries and hives, with or without signal.",
    signInRegion: "Sign in",
    modes: "Log in or create an account",
    tabLogin: "Log in",
    tabSignup: "Create an account",
    email: "Email",
    password: "Password",
    passwordHint: "At least {{min}} characters.",
    organization: "Organization name",
    organizationHint: "Your beekeeping, club or family. You can invite others later.",
    login: "Log in",
    loggingIn: "Logging in…",
    signup: "Create account",
    signingUp: "Creating account…",
    loginJoin: "Log in and join",
    signupJoin: "Create account and join",
    needEmail: "Enter your email address.",
    needPassword: "Enter your password.",
    passwordShort: "Choose a password of at least {{min}} characters.",
    needOrganization: "Give your organization a name.",
    invitedTitle: "You have been invited",
    invitedText:
      "Someone invited you to join their organization on Hivekeep. Create an account or log in with the email address the invitation was sent to.",
    invitedSignupNote: "Your account joins the inviting organization; no new one is created.",
    sessionEndedNote:
      "Your session as {{email}} has ended. Log in again; changes waiting on this device then sync.",
    demoTitle: "Just looking?",
    demoText: "Explore a season of sample apiaries and hives. Read-only, no account needed.",
    demo: "Try the demo",
    startingDemo: "Starting the demo…",
    demoPreparing: "Preparing the sample data; the first time takes a few seconds.",
    offlineSignIn: "You are offline. Signing in needs a connection to the server.",
    // Join (signed in)
    joinTitle: "Invitation",
    joinText:
      "This link invites you to join an organization on Hivekeep. You are signed in as {{email}} in {{organization}}.",
    joinHow:
      "To join with this account, enter its password. The invitation must have been sent to {{email}}.",
    joinButton: "Join with this account",
    joining: "Joining…",
    joinOther:
      "Was the invitation sent to another email address? Log out, then create an account or log in with that address.",
    joinDemo:
      "You are looking at the demo. Leave the demo to create an account or log in with this invitation.",
    joinMissing:
      "This invitation link is incomplete. Open the link exactly as you received it, or ask for a new invitation.",
    joinPending_one:
      "{{count}} change for {{organization}} is waiting on this device. It stays here and syncs when you open {{organization}} again.",
    joinPending_other:
      "{{count}} changes for {{organization}} are waiting on this device. They stay here and sync when you open {{organization}} again.",
    toOverview: "Go to the overview",
    joinSingleUser:
      "This Hivekeep runs without accounts, so it has no invitations: everyone using it shares the same data.",
  },
});

export const authErrorMessages = defineMessages("authErrors", {
  en: {
    offline: "You are offline. This needs a connection to the server; try again when you have one.",
    unreachable: "The server cannot be reached. Try again in a moment.",
    wrongCredentials: "Email or password is wrong.",
    tooMany: "Too many attempts. Try again in {{seconds}} seconds.",
    emailTaken: "This email cannot sign up. If it is yours, log in instead.",
    badInvitation:
      "This invitation is unknown, already used, expired, or was sent to another email address.",
    signupClosed: "Sign-up is closed on this server. Ask an organization owner for an invitation.",
    noOrganization:
      "This account is no longer a member of any organization. Ask an owner for an invitation.",
    demoUnavailable: "The demo is not available on this server.",
    notHosted: "This server runs without accounts; there is nothing to sign in to.",
    sessionEnded: "Your session has ended. Log in again.",
    ownerOnly: "Only an owner of the organization can do this.",
    readOnly: "The demo is read-only.",
    alreadyMember: "This person is already a member.",
    lastOwner: "An organization needs an owner. Invite another owner before removing the last one.",
    notFound: "Not found. It may have been removed meanwhile.",
    invalidEmail: "Enter an email address like name@example.org.",
    passwordLength: "The password must have at least 8 and at most 1024 characters.",
    other: "Something went wrong: {{message}}",
  },
});
