import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { creditCardKind, noticeKind, type RecordKindInfo } from '../src/modules/records/record-kinds.ts';
import { signUpOver, startServerProcess } from '../src/test/server-process.ts';
import { benchTarget, hammer, seedCampaign, type BenchTarget, type HttpFigures } from './support.ts';

const MAIN_NOTICES = Number(process.env.BENCH_SEARCH_NOTICES ?? 1_000_000);
const MAIN_CREDIT_CARDS = 50_000;
const OTHER_USERS = 3;
const OTHER_RECORDS = 20_000;
const DURATION_S = Number(process.env.BENCH_SEARCH_SECONDS ?? 20);

// Names as staff meet them: a few hundred first and last names, so a name is shared by hundreds of records.
const FIRST = (
  'Aarav Aditi Ajay Akash Amit Ananya Anil Anita Anjali Arjun Asha Ashok Deepa Deepak Dinesh Divya Ganesh ' +
  'Gita Gopal Harish Hema Indira Jaya Kavita Kiran Krishna Lakshmi Mahesh Manoj Meena Mohan Nandini Naresh ' +
  'Neha Nikhil Pooja Prakash Priya Rahul Raj Rajesh Rakesh Ramesh Ravi Rekha Rohit Sachin Sanjay Santosh ' +
  'Sarita Shankar Sheela Shiva Sita Sunil Sunita Suresh Usha Vijay Vinod'
).split(' ');
const LAST = (
  'Agarwal Bhat Chauhan Das Desai Gupta Iyer Jain Joshi Kapoor Khan Kulkarni Kumar Mehta Menon Mishra Nair ' +
  'Naidu Pandey Patel Pillai Rao Reddy Saxena Shah Sharma Shetty Singh Sinha Srinivasan Thakur Verma Yadav'
).split(' ');

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const digits = (count: number) =>
  Array.from({ length: count }, () => Math.floor(Math.random() * 10)).join('');

/** The identifiers of the i-th seeded record; the queries below start from the same formulas. */
const loanNo = (i: number) => `LN${String(10_000_000 + i)}`;
const mobile = (i: number) => `9${String(100_000_000 + ((i * 7919) % 900_000_000))}`;
const maskNo = (i: number) => `XXXX XXXX XXXX ${String(i % 10_000).padStart(4, '0')}`;
const referenceNo = (i: number) => `REF/${String(500_000 + i)}`;

/** The searched fields of the i-th record (seedCampaign fills the rest). */
function recordValues(info: RecordKindInfo, i: number): Record<string, string> {
  const values: Record<string, string> = {};
  const middle = i % 5 === 0 ? ` ${pick(FIRST)}` : '';
  values.custName = `${pick(FIRST)}${middle} ${pick(LAST)}`;
  values.custMobileNo = i % 3 === 0 ? `+91 ${mobile(i).slice(0, 5)} ${mobile(i).slice(5)}` : mobile(i);
  if (info.kind === 'notice') values.loanNo = loanNo(i);
  else Object.assign(values, { maskNo: maskNo(i), referenceNo: referenceNo(i) });
  return values;
}

/** The owner's records of a kind, found by the header search; `offset` shifts their identifiers. */
function seed(target: BenchTarget, info: RecordKindInfo, ownerId: string, count: number, offset = 0) {
  return seedCampaign(target, ownerId, info, count, {
    fill: (row, i) => Object.assign(row, recordValues(info, offset + i)),
    searchable: true,
  });
}

/** What staff type, in equal shares: the start of a name, a whole name, and each identifier as quoted. */
export const queries: (() => string)[] = [
  () => pick(FIRST).slice(0, 2 + Math.floor(Math.random() * 3)),
  () => pick(LAST).slice(0, 3 + Math.floor(Math.random() * 3)),
  () => `${pick(FIRST)} ${pick(LAST).slice(0, 2)}`,
  () => loanNo(Math.floor(Math.random() * MAIN_NOTICES)).slice(0, 4 + Math.floor(Math.random() * 6)),
  () => {
    const number = mobile(Math.floor(Math.random() * MAIN_NOTICES));
    return pick([number.slice(0, 6), `+91 ${number.slice(0, 5)} ${number.slice(5)}`, `0${number}`]);
  },
  () => String(Math.floor(Math.random() * 10_000)).padStart(4, '0'),
  () =>
    referenceNo(Math.floor(Math.random() * MAIN_CREDIT_CARDS)).slice(0, 6 + Math.floor(Math.random() * 4)),
  () => `zq${digits(3)}`, // finds nothing: the whole range is empty
];

/** 1,000,000 notices and 50,000 credit cards for one user among others; random searches, 50 connections, 20 s. */
export async function benchSearch(label: BenchTarget['label']): Promise<HttpFigures> {
  const target = await benchTarget(label, 'search');
  const server = await startServerProcess(target.env);
  try {
    const main = await signUpOver(server.baseUrl, 'bench-main');
    const others = [];
    for (let u = 0; u < OTHER_USERS; u++) others.push(await signUpOver(server.baseUrl, `bench-other-${u}`));
    const seedStart = performance.now();
    await seed(target, noticeKind, main.userId, MAIN_NOTICES);
    await seed(target, creditCardKind, main.userId, MAIN_CREDIT_CARDS);
    // The others' loan numbers repeat the main user's: the search must keep to its owner.
    for (const [u, other] of others.entries())
      await seed(target, noticeKind, other.userId, OTHER_RECORDS, u * OTHER_RECORDS);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    // Fresh statistics, as autovacuum would have gathered after a real load of this size.
    const { db } = await openDatabase(target.config);
    await sql`analyze`.execute(db);
    await db.destroy();
    // The seed kept this process busy; let it notice the keep-alive connections the server closed meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const check = await fetch(`${server.baseUrl}/api/search?q=${loanNo(42)}`, { headers: main.headers });
    const checked = (await check.json()) as { results: { matched: { value: string } }[] };
    if (checked.results[0]?.matched.value !== loanNo(42)) throw new Error('seeded search is wrong');

    const path = () => `/api/search?${new URLSearchParams({ q: pick(queries)() })}`;
    return await hammer(
      label,
      { baseUrl: server.baseUrl, headers: main.headers, path },
      { seconds: DURATION_S, seedSeconds },
    );
  } finally {
    await server.stop();
    await target.cleanup();
  }
}
