import { Link } from 'react-router-dom';

const FAQ: Array<{ q: string; a: React.ReactNode }> = [
  {
    q: 'What is a grid bot?',
    a: 'A grid bot places a ladder of buy orders at falling prices below an entry price. While buy orders fill, the bot keeps one sell order for everything it has bought, at the average entry price plus your take-profit percentage. When that sells, the profit is booked and the ladder starts again. In a market that moves up and down, every swing through the ladder can turn into a small profit.',
  },
  {
    q: 'Which exchanges and markets are supported?',
    a: 'Binance and Kucoin, for spot and for futures (USDT-margined). Choose the exchange and the pair when you create a bot.',
  },
  {
    q: 'How is the total cost of a bot calculated?',
    a: 'It is the sum over all orders of order size × price ÷ leverage, where the price falls by the price interval for each successive order, starting from the entry price. The form shows it live while you type. Keep at least 20 USDT (spot) or 60 USDT (futures) on the exchange.',
  },
  {
    q: 'What do Grid size, Order size, Price interval and Take profit mean?',
    a: 'Grid size is how many buy orders the ladder has; order size is the amount of the coin each order buys; price interval is the distance in USDT between two rungs; take profit is a percentage: the whole filled position is sold at the average entry price + this %. With a take profit of 1 and an average entry of 50,000 USDT, the bot sells at 50,500 USDT.',
  },
  {
    q: 'How do I connect my exchange account?',
    a: (
      <>
        Create an API key at the exchange with trading permission (never withdrawals), then add it on the{' '}
        <Link to="/security">security page</Link>. Kucoin keys also need the passphrase you chose at Kucoin.
      </>
    ),
  },
  {
    q: 'Are my API keys safe?',
    a: 'Secrets are encrypted before they are stored, are never shown again, never logged and never sent back to the browser. Deleting a key destroys its encryption key, so it can never be read again.',
  },
  {
    q: 'Why can I not edit or delete a running bot?',
    a: 'A running bot has live orders on the exchange. Stop it first; when you stop it you can choose to cancel all of its open orders.',
  },
  {
    q: 'What does the History of a bot show?',
    a: 'Every event of the bot, oldest first: who did what and when (created, edited, started, stopped, orders placed and filled, profit booked). Move the time slider to see the bot exactly as it was at that moment, and download the whole history as CSV or NDJSON for your records.',
  },
  {
    q: 'Do I need to keep the page open?',
    a: 'No. Bots run on the server. The dashboard shows their status live as soon as it changes.',
  },
];

export default function FaqPage() {
  return (
    <div className="page page--narrow">
      <section className="card prose" aria-labelledby="faq-title">
        <h1 id="faq-title">Frequently asked questions</h1>
        <div className="faq">
          {FAQ.map((item) => (
            <details key={item.q} className="faq__item">
              <summary>{item.q}</summary>
              <div className="faq__answer">{item.a}</div>
            </details>
          ))}
        </div>
        <p className="muted">
          Still stuck? Write to us at the address in the footer.
        </p>
      </section>
    </div>
  );
}
