import { Link } from 'react-router-dom';

/** Terms of Use (spec sections 1 and 9). */
export default function TermsPage() {
  return (
    <div className="page page--narrow">
      <article className="card prose" aria-labelledby="terms-title">
        <h1 id="terms-title">Terms of Use</h1>
        <p className="muted">Last updated: 2025</p>

        <h2>1. Agreement to these terms</h2>
        <p>
          These Terms of Use ("Terms") govern your access to and use of the GridRocket website, dashboard and related
          services (the "Service"), provided by GridRocket ("the company", "we", "us"). By creating an account or by using
          the Service you agree to be bound by these Terms. If you do not agree, you may not use the Service.
        </p>

        <h2>2. The Service</h2>
        <p>
          The Service lets you buy and sell digital assets, load fiat currency by card, monitor your assets, create a
          digital wallet, transfer assets and send or receive money, and operate automated trading bots on third-party
          exchanges through API keys that you create and control. Trading digital assets carries a high level of risk and
          you may lose some or all of the funds you trade. Past performance of any strategy is not a guarantee of future
          results. Nothing in the Service is investment, tax or legal advice.
        </p>

        <h2>3. Eligibility</h2>
        <p>
          You must be at least 18 years old and resident in South Africa to use the Service. By using the Service you
          represent that you meet these requirements and that you have the legal capacity to enter into these Terms.
        </p>

        <h2>4. Your account</h2>
        <p>
          You are responsible for keeping your password and your exchange API keys confidential and for every activity
          that happens under your account. Tell us at once of any unauthorised use. We recommend that API keys you enter
          in the Service have trading permission only and never withdrawal permission.
        </p>

        <h2>5. Exchanges and third parties</h2>
        <p>
          Orders placed by your bots are executed by the exchange you select. We do not control exchanges and are not
          responsible for their availability, fees, rules, outages or the loss of funds held with them.
        </p>

        <h2>6. Acceptable use</h2>
        <p>
          You will not use the Service for any unlawful purpose, to manipulate markets, to launder money or to finance
          unlawful activity; you will not interfere with the Service's security or attempt to access another user's
          account or data.
        </p>

        <h2>7. User content</h2>
        <p>
          You keep ownership of content you submit. You grant us a licence to host and process it to provide the
          Service. The company may remove user content that breaches these Terms or the law, at its discretion and
          without notice.
        </p>

        <h2>8. Copyright complaints and counter-notices</h2>
        <p>
          If you believe content on the Service infringes your copyright, send us a notice with enough detail to
          identify the work and the content. If your content was removed and you believe this was a mistake, you may
          send a counter-notice; unless the complainant tells us that it has started legal proceedings, we may reinstate
          the content within 10 to 14 business days after we receive the counter-notice.
        </p>

        <h2>9. Suspension and termination</h2>
        <p>
          The company may suspend or terminate your account and your access to the Service at any time if you breach
          these Terms, if required by law, or to protect the Service or other users. You may close your account at any
          time. Running bots are stopped when an account is terminated.
        </p>

        <h2>10. Disclaimers and limitation of liability</h2>
        <p>
          The Service is provided "as is" and "as available". To the fullest extent permitted by law, the company is not
          liable for indirect, incidental, special or consequential losses, or for trading losses, lost profits or lost
          data arising from your use of the Service.
        </p>

        <h2>11. Time limit for claims</h2>
        <p>
          Any claim arising from or related to these Terms or the Service must be brought within one year after the
          cause of action arose, or it is permanently barred.
        </p>

        <h2>12. Privacy</h2>
        <p>
          How we handle personal information is described in our <Link to="/privacypolicy">privacy policy</Link>, at
          /privacypolicy, which forms part of these Terms.
        </p>

        <h2>13. Governing law and jurisdiction</h2>
        <p>
          These Terms are governed by the laws of the Republic of South Africa. You agree to the jurisdiction of the
          courts of Gauteng for any dispute arising from these Terms or the Service.
        </p>

        <h2>14. Changes</h2>
        <p>
          We may change these Terms from time to time. We will post the new Terms on this page; if you keep using the
          Service after a change, you accept the new Terms.
        </p>
      </article>
    </div>
  );
}
