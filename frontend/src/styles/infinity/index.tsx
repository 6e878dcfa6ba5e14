/**
 * The infinity grid in the dashboard (issue 32, docs/infinity.md): a spot grid that sells a fixed value each
 * step up and buys it each step down. Its settings are its own (its ladder fields are 0), the server refuses
 * its edit, and the ladder's tools (templates, range setup, backtest) are not for it.
 */
import { INFINITY_EDIT_MESSAGE } from '@gridrocket/bots/styles/infinity/infinity.rules';
import type { Bot } from '../../api/types';
import { compact, percent, price, usdt } from '../../bots/format';
import { Fact } from '../../components/Facts';
import { LONG_WORDS } from '../ladder/words';
import type { DashboardStyle } from '../style';
import { INFINITY_FORM } from './botForm';

/** The bot card's facts of an infinity grid. */
function CardFacts({ bot, cur }: { bot: Bot; cur: string }) {
  return (
    <dl className="bot-card__facts" data-testid="infinity-facts">
      <Fact label="Style" value="Infinity" title="Sells a fixed value each step up, buys it each step down" />
      <Fact label="Entry price" value={compact(bot.entryprice)} title={`In ${cur}`} />
      <Fact label="Step" value={percent(bot.steppercent ?? 0)} />
      <Fact label="Per step" value={`${compact(bot.quotevalue ?? 0)} ${cur}`} title="Value sold on each step up and bought on each step down" />
      <Fact label="Lower price" value={compact(bot.lowerprice ?? 0)} title="No buy below this price" />
      <Fact label="Initial buy" value={`${compact(bot.initialquote ?? 0)} ${cur}`} />
    </dl>
  );
}

/** The bot page's settings of an infinity grid. */
function PageSettings({ bot, cur }: { bot: Bot; cur: string }) {
  return (
    <dl className="settings-facts" data-testid="infinity-settings">
      <div><dt>Style</dt><dd>Infinity</dd></div>
      <div><dt>Entry price</dt><dd>{price(bot.entryprice)} {cur}</dd></div>
      <div><dt>Step</dt><dd>{percent(bot.steppercent ?? 0)}</dd></div>
      <div><dt>Value per step</dt><dd>{usdt(bot.quotevalue ?? 0)} {cur}</dd></div>
      <div><dt>Lower price</dt><dd>{price(bot.lowerprice ?? 0)} {cur}</dd></div>
      <div><dt>Initial buy</dt><dd>{usdt(bot.initialquote ?? 0)} {cur}</dd></div>
      <div className="settings-facts__wide"><dt>How it trades</dt><dd>Sells {usdt(bot.quotevalue ?? 0)} {cur} of coin each step up and buys as much each step down, with no buy below {price(bot.lowerprice ?? 0)} {cur}</dd></div>
    </dl>
  );
}

export const INFINITY_STYLE: DashboardStyle = {
  name: 'infinity',
  matches: (bot) => bot.style === 'infinity',
  words: LONG_WORDS,
  editRefusal: INFINITY_EDIT_MESSAGE,
  pageTag: ' · infinity grid',
  ladderTools: false,
  CardFacts,
  PageSettings,
  form: INFINITY_FORM,
};
