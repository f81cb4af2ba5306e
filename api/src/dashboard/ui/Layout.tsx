/** The page frame: skip link, navigation, who is signed in, sign-out, and the page itself. */
import { raw } from "hono/html";
import type { Child } from "hono/jsx";

export type Section = "overview" | "usage" | "workspaces" | "keys" | "billing";

const SECTIONS: { id: Section; href: string; label: string }[] = [
  { id: "overview", href: "/dashboard", label: "Overview" },
  { id: "usage", href: "/dashboard/usage", label: "Usage" },
  { id: "workspaces", href: "/dashboard/workspaces", label: "Workspaces" },
  { id: "keys", href: "/dashboard/keys", label: "API keys" },
  { id: "billing", href: "/dashboard/billing", label: "Billing" },
];

export interface LayoutProps {
  title: string;
  section?: Section;
  /** The signed-in account, or absent on the sign-in page. */
  account?: { email: string; plan: string };
  csrf?: string;
  children?: Child;
}

export function Layout({ title, section, account, csrf, children }: LayoutProps) {
  // JSX has no doctype; without one, browsers render the page in quirks mode.
  return (
    <>
      {raw("<!doctype html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${title} · Cubicle`}</title>
          <link rel="stylesheet" href="/dashboard/assets/app.css" />
          <script src="/dashboard/assets/app.js" defer />
        </head>
        <body>
          <a class="visually-hidden" href="#main">
            Skip to content
          </a>
          <header>
            <a class="brand" href="/dashboard">
              Cubicle
            </a>
            {account && (
              <nav aria-label="Dashboard">
                <ul>
                  {SECTIONS.map((item) => (
                    <li>
                      <a href={item.href} aria-current={item.id === section ? "page" : undefined}>
                        {item.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            )}
            {account && csrf && (
              <div class="who">
                <span>
                  {account.email} · {account.plan} plan
                </span>
                <form class="inline" method="post" action="/dashboard/logout">
                  <input type="hidden" name="_csrf" value={csrf} />
                  <button type="submit" class="secondary">
                    Sign out
                  </button>
                </form>
              </div>
            )}
          </header>
          <main id="main">
            <h1>{title}</h1>
            {children}
          </main>
        </body>
      </html>
    </>
  );
}
