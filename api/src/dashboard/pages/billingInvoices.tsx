/**
 * The billing page's invoices: the upcoming one line by line (its total is the API's
 * `totalMicros`), and the closed ones, a page at a time.
 */
import type { FeeLine, InvoiceLine } from "../../../../tenants/account/ledger/invoice.ts";
import type { ClosedInvoice, Usage } from "../../../../tenants/account/usage.ts";
import { date, dateTime, meterLabel, money, price, quantity, timeLeft } from "../format.ts";
import { TableHead } from "../ui/TableHead.tsx";
import { TableWrap } from "../ui/TableWrap.tsx";

type Upcoming = Awaited<ReturnType<Usage["upcomingInvoice"]>>;

/** A unit price as plans advertise it: below a cent per unit, per million units. */
function unitPrice(line: InvoiceLine): string {
  if (line.unitPriceMicros === 0) return "—";
  if (line.unitPriceMicros >= 10_000)
    return `${price(line.unitPriceMicros)} per ${quantity(line.meter, line.unitSize)}`;
  const perMillionMicros = Math.round((line.unitPriceMicros * 1_000_000) / line.unitSize);
  return `${price(perMillionMicros)} per ${quantity(line.meter, 1_000_000)}`;
}

/** One part of the plan fee in words: the plan's own fee, or an upgrade's prorated difference. */
/** A fee part's name and, in words, where its amount comes from. */
function feeWords(fee: FeeLine, upcoming: Upcoming) {
  if (fee.upgradedFrom !== null) {
    const left = timeLeft(fee.from, upcoming.periodStart, upcoming.periodEnd);
    return {
      label: `Upgrade to ${fee.plan}`,
      note: `from ${fee.upgradedFrom} on ${dateTime(fee.from)}: the ${money(fee.monthlyMicros)} monthly difference, prorated to the ${left} left in the period`,
    };
  }
  const note =
    fee.monthlyMicros === 0
      ? `the ${fee.plan} plan has no fee`
      : `the ${fee.plan} plan, ${money(fee.monthlyMicros)} a month`;
  return { label: `Plan fee: ${fee.plan}`, note };
}

function FeeRow({ fee, upcoming }: { fee: FeeLine; upcoming: Upcoming }) {
  const { label, note } = feeWords(fee, upcoming);
  return (
    <tr data-fee-plan={fee.plan} data-fee-micros={fee.amountMicros} data-prorated={String(fee.upgradedFrom !== null)}>
      <th scope="row">{label}</th>
      <td colspan={4} class="muted">
        {note}
      </td>
      <td class="num">{money(fee.amountMicros)}</td>
    </tr>
  );
}

/**
 * The invoice at phone width: six columns do not fit 375 px, and a scrolled table hides its
 * amounts. The stylesheet shows this list instead of the table there (and only there), one
 * item per line with its amount beside its name and the details below.
 */
function NarrowInvoice({ upcoming }: { upcoming: Upcoming }) {
  return (
    <ul class="invoice-narrow" aria-labelledby="upcoming">
      {upcoming.fees.map((fee) => {
        const { label, note } = feeWords(fee, upcoming);
        return (
          <li>
            <span class="item">{label}</span>
            <span class="amount">{money(fee.amountMicros)}</span>
            <span class="note">{note}</span>
          </li>
        );
      })}
      {upcoming.lines.map((line) => (
        <li>
          <span class="item">{meterLabel(line.meter)}</span>
          <span class="amount">{money(line.amountMicros)}</span>
          <span class="note">
            {quantity(line.meter, line.used)} used of {quantity(line.meter, line.included)} included
            {line.overage > 0 && `; ${quantity(line.meter, line.overage)} billable at ${unitPrice(line)}`}
          </span>
        </li>
      ))}
      <li class="total">
        <span class="item">Total</span>
        <span class="amount">{money(upcoming.totalMicros)}</span>
      </li>
    </ul>
  );
}

export function UpcomingInvoice({ upcoming }: { upcoming: Upcoming }) {
  return (
    <>
      <h2 id="upcoming">Upcoming invoice</h2>
      <p class="muted">
        {date(upcoming.periodStart)} to {date(upcoming.periodEnd)}, on the {upcoming.plan} plan, as it stands now.
      </p>
      <NarrowInvoice upcoming={upcoming} />
      <TableWrap label="Upcoming invoice" class="invoice-wide">
        <table aria-labelledby="upcoming" id="upcoming-table">
          <TableHead
            columns={[
              "Meter",
              { label: "Included", num: true },
              { label: "Used", num: true },
              { label: "Billable", num: true },
              { label: "Unit price", num: true },
              { label: "Amount", num: true },
            ]}
          />
          <tbody>
            {upcoming.fees.map((fee) => (
              <FeeRow fee={fee} upcoming={upcoming} />
            ))}
            {upcoming.lines.map((line) => (
              <tr data-meter={line.meter} data-amount-micros={line.amountMicros}>
                <th scope="row">{meterLabel(line.meter)}</th>
                <td class="num">{quantity(line.meter, line.included)}</td>
                <td class="num" data-used={line.used}>
                  {quantity(line.meter, line.used)}
                </td>
                <td class="num">{quantity(line.meter, line.overage)}</td>
                <td class="num">{unitPrice(line)}</td>
                <td class="num">{money(line.amountMicros)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colspan={5}>
                Total
              </th>
              <td class="num" data-total-micros={upcoming.totalMicros}>
                {money(upcoming.totalMicros)}
              </td>
            </tr>
          </tfoot>
        </table>
      </TableWrap>
      <p class="hint">
        Charges are counted in millionths of a dollar and shown here rounded to the cent; each usage line rounds up
        once, never per request.
      </p>
    </>
  );
}

export function PastInvoices({ invoices }: { invoices: { data: ClosedInvoice[]; nextCursor: string | null } }) {
  return (
    <>
      <h2 id="past-invoices">Past invoices</h2>
      {invoices.data.length === 0 ? (
        <p class="muted">No closed invoices yet: one is written when each billing period ends.</p>
      ) : (
        <TableWrap label="Past invoices">
          <table aria-labelledby="past-invoices" id="invoice-table">
            <TableHead columns={["Period", "Plan", { label: "Plan fee", num: true }, { label: "Total", num: true }]} />
            <tbody>
              {invoices.data.map((invoice) => (
                <tr data-invoice-id={invoice.id}>
                  <th scope="row">
                    {date(invoice.periodStart)} to {date(invoice.periodEnd)}
                  </th>
                  <td>{invoice.plan}</td>
                  <td class="num">{money(invoice.feeMicros)}</td>
                  <td class="num" data-invoice-total-micros={invoice.totalMicros}>
                    {money(invoice.totalMicros)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {invoices.nextCursor && (
        <p>
          <a href={`/dashboard/billing?after=${invoices.nextCursor}`}>Later invoices</a>
        </p>
      )}
    </>
  );
}
