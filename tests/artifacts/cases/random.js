// @ts-check
import { deriveSeed, Random } from "@sched/random";

/** The first numbers of two named streams, and a derived seed: the same in every engine. */
export async function compute() {
  const sizes = new Random(42, "sizes");
  const child = sizes.stream("small");
  return {
    uint32: [sizes.uint32(), sizes.uint32()],
    next: sizes.next(),
    integer: sizes.integer(1, 8),
    gamma: sizes.gamma(2.5, 2),
    child: child.next(),
    derived: deriveSeed(7, "run=3"),
  };
}
