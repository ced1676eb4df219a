/** The error mapping lives in client-core (the device maps errors the same way). */
export { invalidArgument, toConnectError } from "@hivekeep/client-core/ops";
