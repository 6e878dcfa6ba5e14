import { Body, HttpCode, Post, Req } from '@nestjs/common';
import { AppRequest, CurrentUser, SessionUser, assertSameUser, correlationIdOf } from '@gridrocket/shared/http';
import { AccountService } from './account.service';
import { displayNameOf, parseOrThrow, profileSchema } from './auth.rules';
import { SessionController } from './session-controller';
import { publicUser } from './session.service';

/** Spec section 7: `POST /user {userId, firstname, lastname, username, picurl}` updates the profile. */
@SessionController('user')
export class UserController {
  constructor(private readonly accounts: AccountService) {}

  @Post()
  @HttpCode(200)
  async update(@Body() body: unknown, @CurrentUser() user: SessionUser, @Req() req: AppRequest) {
    const p = parseOrThrow(profileSchema, body);
    assertSameUser(user.uid, p.userId);
    const current = await this.accounts.updateProfile(
      user.uid,
      { displayName: displayNameOf(p), photoURL: p.picurl === undefined ? undefined : p.picurl || null },
      { correlationId: correlationIdOf(req) },
    );
    return publicUser(current);
  }
}
