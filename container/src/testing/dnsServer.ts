/**
 * A DNS server on loopback that answers A and AAAA questions from a fixed table, so tests can
 * make a name resolve to whatever they need (a private address, for one) through the same
 * resolver and wire protocol the egress proxy uses in production. Names not in the table get
 * NXDOMAIN; a name without records of the asked type gets an empty answer (ENODATA).
 */
import { createSocket } from "node:dgram";
import { isIPv4 } from "node:net";
import { parseIPv6 } from "../../wire/egress/address.ts";

export type DnsTable = Record<string, string[]>;

export interface DnsServer {
  /** `127.0.0.1:<port>`, for the resolver's server list. */
  address: string;
  /** Questions asked so far, as `<name> <A|AAAA>`. */
  questions: string[];
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;

export async function startDnsServer(table: DnsTable): Promise<DnsServer> {
  const socket = createSocket("udp4");
  const questions: string[] = [];
  socket.on("message", (query, peer) => {
    const question = readQuestion(query);
    if (!question) return;
    questions.push(`${question.name} ${question.type === TYPE_AAAA ? "AAAA" : "A"}`);
    socket.send(answer(query, question, table), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

interface Question {
  name: string;
  type: number;
  /** Where the question section ends in the query. */
  end: number;
}

function readQuestion(query: Buffer): Question | null {
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length && query[offset] !== 0) {
    const length = query[offset] as number;
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString("ascii"));
    offset += 1 + length;
  }
  if (offset + 5 > query.length) return null;
  return { name: labels.join(".").toLowerCase(), type: query.readUInt16BE(offset + 1), end: offset + 5 };
}

function answer(query: Buffer, question: Question, table: DnsTable): Buffer {
  const known = table[question.name];
  const wanted = (known ?? []).filter((a) => (question.type === TYPE_A ? isIPv4(a) : !isIPv4(a)));
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(known ? 0x8180 : 0x8183, 2); // a response, recursion available; NXDOMAIN when unknown
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(wanted.length, 6);
  const records = wanted.map((address) => {
    const data = question.type === TYPE_A ? Buffer.from(address.split(".").map(Number)) : ipv6Bytes(address);
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // the name, as a pointer to the question's
    record.writeUInt16BE(question.type, 2);
    record.writeUInt16BE(1, 4); // IN
    record.writeUInt32BE(1, 6); // TTL, seconds
    record.writeUInt16BE(data.length, 10);
    return Buffer.concat([record, data]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...records]);
}

function ipv6Bytes(address: string): Buffer {
  const bytes = Buffer.alloc(16);
  for (const [i, group] of (parseIPv6(address) ?? []).entries()) bytes.writeUInt16BE(group, i * 2);
  return bytes;
}
