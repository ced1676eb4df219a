/**
 * The problems a reader reports, at most `maxListedProblems` of them (issue 26): a file of junk
 * (50 MB of lines that are all wrong) must not answer with a million messages. The first ones
 * are listed in file order, and one more says how many were left out; the file is refused
 * either way.
 */
import type { ImportProblem } from "./record-set.ts";

export const maxListedProblems = 1000;

export function listedProblems(problems: readonly ImportProblem[]): readonly ImportProblem[] {
  if (problems.length <= maxListedProblems) return problems;
  const rest = problems.length - maxListedProblems;
  return [
    ...problems.slice(0, maxListedProblems),
    {
      message: `${rest} more problem${rest === 1 ? "" : "s"} not listed: fix these and read the file again`,
    },
  ];
}
