/**
 * `%Z` in `printf '%(…)T'` and `date` names the zone as the tz database does: `IST` for
 * Asia/Kolkata, `CET`/`CEST` for Europe/Berlin, `BST` for London in summer, `+04` for
 * Asia/Dubai. just-bash used the en-US short names of Intl, which are right for the United
 * States only and `GMT+5:30`-style elsewhere. The common zones' abbreviations are listed here
 * by UTC offset; any other zone that Intl names `GMT±…` gets the tz database's numeric form.
 */
import type { Patch } from "./patch.ts";

// Hand-written: Intl has no locale-independent tz abbreviations, and no library here carries
// the tz database's; the table holds the zones agents set, by offset in minutes.
const helpers = `
const __cbZoneGroups = [
  [["Europe/London", "Europe/Belfast", "GB"], { 0: "GMT", 60: "BST" }],
  [["Europe/Dublin", "Eire"], { 0: "GMT", 60: "IST" }],
  [["Europe/Lisbon", "Atlantic/Canary", "Atlantic/Madeira", "Portugal"], { 0: "WET", 60: "WEST" }],
  [["Europe/Berlin", "Europe/Paris", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam", "Europe/Brussels", "Europe/Vienna", "Europe/Zurich", "Europe/Stockholm", "Europe/Oslo", "Europe/Copenhagen", "Europe/Warsaw", "Europe/Prague", "Europe/Budapest", "Europe/Belgrade", "Europe/Zagreb", "Europe/Ljubljana", "Europe/Bratislava", "Europe/Luxembourg", "Europe/Monaco", "Europe/Malta", "Europe/Andorra", "Europe/Gibraltar", "Europe/Sarajevo", "Europe/Skopje", "Europe/Tirane", "Africa/Ceuta", "CET", "Poland"], { 60: "CET", 120: "CEST" }],
  [["Europe/Athens", "Europe/Helsinki", "Europe/Kiev", "Europe/Kyiv", "Europe/Bucharest", "Europe/Sofia", "Europe/Riga", "Europe/Tallinn", "Europe/Vilnius", "Europe/Chisinau", "Asia/Nicosia", "Africa/Cairo", "Asia/Beirut", "EET", "Egypt"], { 120: "EET", 180: "EEST" }],
  [["Europe/Moscow", "W-SU"], { 180: "MSK" }],
  [["Asia/Kolkata", "Asia/Calcutta"], { 330: "IST" }],
  [["Asia/Tokyo", "Japan"], { 540: "JST" }],
  [["Asia/Seoul", "ROK"], { 540: "KST" }],
  [["Asia/Shanghai", "Asia/Chongqing", "Asia/Taipei", "PRC", "ROC"], { 480: "CST" }],
  [["Asia/Hong_Kong", "Hongkong"], { 480: "HKT" }],
  [["Asia/Manila"], { 480: "PST" }],
  [["Asia/Jerusalem", "Asia/Tel_Aviv", "Israel"], { 120: "IST", 180: "IDT" }],
  [["Asia/Karachi"], { 300: "PKT" }],
  [["Asia/Jakarta"], { 420: "WIB" }],
  [["Australia/Sydney", "Australia/Melbourne", "Australia/Hobart", "Australia/Canberra", "Australia/ACT", "Australia/NSW", "Australia/Victoria", "Australia/Tasmania", "Australia/Brisbane", "Australia/Queensland"], { 600: "AEST", 660: "AEDT" }],
  [["Australia/Adelaide", "Australia/Darwin", "Australia/South", "Australia/North"], { 570: "ACST", 630: "ACDT" }],
  [["Australia/Perth", "Australia/West"], { 480: "AWST" }],
  [["Pacific/Auckland", "NZ"], { 720: "NZST", 780: "NZDT" }],
  [["America/St_Johns", "Canada/Newfoundland"], { [-210]: "NST", [-150]: "NDT" }],
  [["Africa/Johannesburg"], { 120: "SAST" }],
  [["Africa/Lagos"], { 60: "WAT" }],
  [["Africa/Nairobi"], { 180: "EAT" }],
];
const __cbZones = new Map(__cbZoneGroups.flatMap(([zones, names]) => zones.map((z) => [z, names])));
function __cbZoneAbbr(date, zone, intlName) {
  const m = /^([+-])(\\d\\d)(\\d\\d)$/.exec(c8(date, zone));
  if (!m || !zone) return intlName;
  const off = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  const named = __cbZones.get(zone)?.[off];
  if (named) return named;
  if (!/^GMT[+-]/.test(intlName)) return intlName;
  return \`\${m[1]}\${m[2]}\${m[3] === "00" ? "" : m[3]}\`;
}
`;

export const zoneAbbreviations: Patch = {
  name: "zone-abbreviations",
  why: "%Z names a zone as the tz database does (IST, CET, CEST, BST, +04), not by Intl's en-US GMT+5:30 names.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: "function u8(e,t){",
      replace: "function u8(e,t){return __cbZoneAbbr(e,t,__cbOld_u8(e,t))}function __cbOld_u8(e,t){",
    },
  ],
  shows: [
    "for z in UTC America/New_York Europe/London Europe/Berlin Asia/Kolkata Asia/Tokyo Asia/Dubai Australia/Sydney Asia/Kathmandu; do TZ=$z printf '%(%Z %z)T|' 0; TZ=$z printf '%(%Z)T\\n' 1720000000; done",
    "for z in UTC America/New_York Asia/Kolkata Europe/Paris; do TZ=$z date -d @1720000000 +'%Z %z %H'; done",
  ],
};
