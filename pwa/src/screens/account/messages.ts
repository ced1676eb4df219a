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
  de: {
    welcome: "Hivekeep",
    tagline: "Ihre Bienenstände und Völker im Blick, mit oder ohne Empfang.",
    signInRegion: "Anmelden",
    modes: "Anmelden oder Konto erstellen",
    tabLogin: "Anmelden",
    tabSignup: "Konto erstellen",
    email: "E-Mail",
    password: "Passwort",
    passwordHint: "Mindestens {{min}} Zeichen.",
    organization: "Name der Organisation",
    organizationHint:
      "Ihre Imkerei, Ihr Verein oder Ihre Familie. Andere können Sie später einladen.",
    login: "Anmelden",
    loggingIn: "Anmeldung läuft…",
    signup: "Konto erstellen",
    signingUp: "Konto wird erstellt…",
    loginJoin: "Anmelden und beitreten",
    signupJoin: "Konto erstellen und beitreten",
    needEmail: "Geben Sie Ihre E-Mail-Adresse ein.",
    needPassword: "Geben Sie Ihr Passwort ein.",
    passwordShort: "Wählen Sie ein Passwort mit mindestens {{min}} Zeichen.",
    needOrganization: "Geben Sie Ihrer Organisation einen Namen.",
    invitedTitle: "Sie wurden eingeladen",
    invitedText:
      "Jemand lädt Sie ein, einer Organisation auf Hivekeep beizutreten. Erstellen Sie ein Konto oder melden Sie sich mit der E-Mail-Adresse an, an die die Einladung ging.",
    invitedSignupNote:
      "Ihr Konto tritt der einladenden Organisation bei; es wird keine neue angelegt.",
    sessionEndedNote:
      "Ihre Sitzung als {{email}} ist abgelaufen. Melden Sie sich wieder an; auf diesem Gerät wartende Änderungen werden dann synchronisiert.",
    demoTitle: "Nur mal schauen?",
    demoText:
      "Sehen Sie sich eine Saison mit Beispiel-Ständen und -Völkern an. Nur lesen, ohne Konto.",
    demo: "Demo ansehen",
    startingDemo: "Demo startet…",
    demoPreparing:
      "Die Beispieldaten werden vorbereitet; beim ersten Mal dauert das einige Sekunden.",
    offlineSignIn: "Sie sind offline. Zum Anmelden ist eine Verbindung zum Server nötig.",
    joinTitle: "Einladung",
    joinText:
      "Mit diesem Link werden Sie eingeladen, einer Organisation auf Hivekeep beizutreten. Sie sind als {{email}} in {{organization}} angemeldet.",
    joinHow:
      "Um mit diesem Konto beizutreten, geben Sie sein Passwort ein. Die Einladung muss an {{email}} gegangen sein.",
    joinButton: "Mit diesem Konto beitreten",
    joining: "Beitritt läuft…",
    joinOther:
      "Ging die Einladung an eine andere E-Mail-Adresse? Melden Sie sich ab und erstellen Sie dann ein Konto oder melden Sie sich mit dieser Adresse an.",
    joinDemo:
      "Sie sehen gerade die Demo. Verlassen Sie die Demo, um mit dieser Einladung ein Konto zu erstellen oder sich anzumelden.",
    joinMissing:
      "Dieser Einladungslink ist unvollständig. Öffnen Sie den Link genau so, wie Sie ihn erhalten haben, oder bitten Sie um eine neue Einladung.",
    joinPending_one:
      "{{count}} Änderung für {{organization}} wartet auf diesem Gerät. Sie bleibt hier und wird synchronisiert, sobald Sie {{organization}} wieder öffnen.",
    joinPending_other:
      "{{count}} Änderungen für {{organization}} warten auf diesem Gerät. Sie bleiben hier und werden synchronisiert, sobald Sie {{organization}} wieder öffnen.",
    toOverview: "Zur Übersicht",
    joinSingleUser:
      "Dieses Hivekeep läuft ohne Konten und hat daher keine Einladungen: Alle, die es nutzen, teilen dieselben Daten.",
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
  de: {
    offline:
      "Sie sind offline. Dafür ist eine Verbindung zum Server nötig; versuchen Sie es mit Verbindung erneut.",
    unreachable: "Der Server ist nicht erreichbar. Versuchen Sie es gleich noch einmal.",
    wrongCredentials: "E-Mail oder Passwort ist falsch.",
    tooMany: "Zu viele Versuche. Versuchen Sie es in {{seconds}} Sekunden erneut.",
    emailTaken:
      "Mit dieser E-Mail-Adresse ist keine Registrierung möglich. Wenn es Ihre ist, melden Sie sich an.",
    badInvitation:
      "Diese Einladung ist unbekannt, schon benutzt, abgelaufen oder ging an eine andere E-Mail-Adresse.",
    signupClosed:
      "Neue Konten sind auf diesem Server geschlossen. Bitten Sie eine Inhaberin oder einen Inhaber einer Organisation um eine Einladung.",
    noOrganization:
      "Dieses Konto gehört keiner Organisation mehr an. Bitten Sie um eine Einladung.",
    demoUnavailable: "Die Demo ist auf diesem Server nicht verfügbar.",
    notHosted: "Dieser Server läuft ohne Konten; eine Anmeldung ist nicht nötig.",
    sessionEnded: "Ihre Sitzung ist abgelaufen. Melden Sie sich erneut an.",
    ownerOnly: "Das kann nur eine Inhaberin oder ein Inhaber der Organisation.",
    readOnly: "Die Demo ist schreibgeschützt.",
    alreadyMember: "Diese Person ist bereits Mitglied.",
    lastOwner:
      "Eine Organisation braucht eine Inhaberin oder einen Inhaber. Laden Sie erst eine weitere Person als Inhaber ein.",
    notFound: "Nicht gefunden. Vielleicht wurde es inzwischen entfernt.",
    invalidEmail: "Geben Sie eine E-Mail-Adresse wie name@example.org ein.",
    passwordLength: "Das Passwort muss mindestens 8 und höchstens 1024 Zeichen haben.",
    other: "Etwas ist schiefgegangen: {{message}}",
  },
});
