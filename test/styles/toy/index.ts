/**
 * The toy grid style of the test tree (issue 42): its engine, runner side, backtest walk and form rules
 * live in this folder, and the one line below registers it. A test imports this module (and names it in
 * GRIDROCKET_STYLE_PLUGINS, so the backtest's worker threads load it too).
 */
import { registerStylePlugin } from '@gridrocket/shared';
import { toyRules } from './toy.rules';
import { toyStyle } from './toy.style';
import { toyWalk } from './toy.walk';

export const unregisterToy = registerStylePlugin({ name: 'toy', runner: toyStyle, backtest: toyWalk, rules: toyRules });
