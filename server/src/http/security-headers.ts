/**
 * The security headers of every answer (the app shell, its assets, the service worker, the RPCs),
 * in this one place (issue 27, finding 7; docs/decisions.md "Airtight hosted mode (issue 27): the
 * HTTP edge" gives each directive's reason).
 *
 * The Content-Security-Policy fits the app as built: Vite emits module scripts and one stylesheet
 * from /assets, no inline script or style (vite-plugin-pwa's `injectRegister: false`: the app
 * registers its service worker from its own bundle), React sets `style` through the CSSOM, which
 * CSP does not govern, and photos are shown from `data:` and `blob:` URLs. A future XSS finds no
 * inline or foreign script it may run, and nowhere but this server (and the configured CORS
 * origins) to send a stolen session token.
 */
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

/** The Content-Security-Policy directives, for the origins the app may connect to besides its own. */
export function contentSecurityPolicy(corsOrigins: readonly string[]) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "data:", "blob:"],
    fontSrc: ["'self'"],
    connectSrc: ["'self'", ...corsOrigins],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/** The middleware that sets the headers on every answer. */
export function securityHeaders(corsOrigins: readonly string[]): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: contentSecurityPolicy(corsOrigins),
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    referrerPolicy: "no-referrer",
    crossOriginOpenerPolicy: "same-origin",
    crossOriginResourcePolicy: "same-origin",
    // Browsers ignore it over plain HTTP (a server on the LAN); behind TLS it keeps the app on
    // HTTPS. Not includeSubDomains: the operator's other hosts are not this app's to decide.
    strictTransportSecurity: "max-age=31536000",
    // The app asks for the position of an apiary and takes photos (<input capture>); nothing else.
    permissionsPolicy: {
      camera: ["self"],
      geolocation: ["self"],
      microphone: [],
      payment: [],
      usb: [],
      serial: [],
      bluetooth: [],
      hid: [],
      midi: [],
      displayCapture: [],
      browsingTopics: [],
    },
  });
}
