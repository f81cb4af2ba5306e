"""``client.usage``, ``client.quotas`` and ``client.billing``."""

from __future__ import annotations

from typing import Literal

from .._generated import operations as ops
from .._generated.models import BillingState, Invoice, Meter, Quotas, UpcomingInvoice, UsageEvent, UsageReport
from .http import HttpTransport
from .pager import Page, Pager


class Usage:
    def __init__(self, transport: HttpTransport) -> None:
        self._transport = transport

    def get(
        self,
        *,
        from_: str | None = None,
        to: str | None = None,
        granularity: Literal["hour", "day"] | None = None,
        group_by: Literal["meter", "workspace", "key"] | None = None,
        meter: Meter | None = None,
    ) -> UsageReport:
        """Usage per meter (or per workspace or key) over time; times are RFC 3339."""
        return ops.get_usage(
            self._transport, from_=from_, to=to, granularity=granularity, group_by=group_by, meter=meter
        )

    def events(
        self,
        *,
        from_: str | None = None,
        to: str | None = None,
        meter: Meter | None = None,
        workspace_id: str | None = None,
        key_id: str | None = None,
        limit: int | None = None,
    ) -> Pager[UsageEvent]:
        """The usage ledger, event by event, oldest first."""

        def fetch(cursor: str | None) -> Page[UsageEvent]:
            page = ops.list_usage_events(
                self._transport,
                from_=from_,
                to=to,
                meter=meter,
                workspace_id=workspace_id,
                key_id=key_id,
                limit=limit,
                cursor=cursor,
            )
            return Page(page.data, page.next_cursor)

        return Pager(fetch)


class QuotasResource:
    def __init__(self, transport: HttpTransport) -> None:
        self._transport = transport

    def get(self) -> Quotas:
        """Per meter: the limit, what is used and what remains this period."""
        return ops.get_quotas(self._transport)


class Billing:
    def __init__(self, transport: HttpTransport) -> None:
        self._transport = transport

    def get(self) -> BillingState:
        return ops.get_billing(self._transport)

    def upcoming_invoice(self) -> UpcomingInvoice:
        return ops.get_upcoming_invoice(self._transport)

    def invoices(self, *, limit: int | None = None) -> Pager[Invoice]:
        def fetch(cursor: str | None) -> Page[Invoice]:
            page = ops.list_invoices(self._transport, limit=limit, cursor=cursor)
            return Page(page.data, page.next_cursor)

        return Pager(fetch)

    def change_plan(self, plan: Literal["free", "pro", "scale"]) -> BillingState:
        return ops.change_plan(self._transport, plan=plan)

    def set_spend_cap(self, amount_micros: int | None) -> BillingState:
        """Sets the cap in micro-dollars; None clears it."""
        return ops.set_spend_cap(self._transport, amount_micros=amount_micros)
