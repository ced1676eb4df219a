/**
 * Which client addresses the sign-in throttle counts as one (throttle.ts). An IPv4 address is
 * its own; an IPv6 address counts with its /64, because one home connection or one cloud
 * server usually gets a whole /64 and could otherwise sign in from a fresh address for every
 * guess; an IPv4 address written as IPv6 (`::ffff:192.0.2.1`) is that IPv4 address. Anything
 * else (a socket without an address, what a proxy forwarded) is kept as it is.
 */
import { isIPv4, isIPv6 } from "node:net";

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined;
  const [head = "", tail] = address.split("%")[0]?.split("::") ?? [];
  const parse = (part: string): number[] => {
    if (part === "") return [];
    const groups: number[] = [];
    for (const piece of part.split(":")) {
      if (isIPv4(piece)) {
        const [a = 0, b = 0, c = 0, d = 0] = piece.split(".").map(Number);
        groups.push(a * 256 + b, c * 256 + d);
      } else groups.push(Number.parseInt(piece, 16));
    }
    return groups;
  };
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...Array(8 - first.length - last.length).fill(0), ...last];
}

export function addressGroup(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
