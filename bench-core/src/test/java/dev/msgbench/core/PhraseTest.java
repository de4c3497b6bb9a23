package dev.msgbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

class PhraseTest {

    private static final SettingNames QUOTED = setting -> "'" + setting.key() + "'";

    @Test
    void settingsAreNamedByWhoeverRendersTheLineAndByTheirKeysOtherwise() {
        Phrase phrase = Phrase.of("%s %d: give %s %d or more", Setting.TOPICS, 3, Setting.PRODUCERS, 3);

        assertEquals("topics 3: give producers 3 or more", phrase.toString());
        assertEquals("'topics' 3: give 'producers' 3 or more", phrase.render(QUOTED));
        assertEquals(List.of(Setting.TOPICS, Setting.PRODUCERS), phrase.settings());
    }

    @Test
    void aPhraseInsideAnotherIsRenderedWithTheSameNamesAndItsSettingsCount() {
        Phrase echo = Phrase.of("%s echo", Setting.PATTERN);
        Phrase phrase = Phrase.of("%s needs %s %d", echo, Setting.CONSUMERS, 1);

        assertEquals("'pattern' echo needs 'consumers' 1", phrase.render(QUOTED));
        assertEquals(List.of(Setting.PATTERN, Setting.CONSUMERS), phrase.settings());
    }

    @Test
    void formatsNumbersTheSameEverywhereAndTakesTextAsItIs() {
        assertEquals("1.50 s, 100%", Phrase.of("%.2f s, %d%%", 1.5, 100).toString());
        assertEquals("50% of %s", Phrase.text("50% of %s").toString());
        assertEquals(List.of(), Phrase.text("no setting").settings());
    }

    @Test
    void aUserErrorCarriesItsPhraseToWhoeverShowsIt() {
        UserError e = new UserError(Phrase.of("%s must be at least 1, got %d", Setting.BROKERS, 0));

        assertEquals("brokers must be at least 1, got 0", e.getMessage());
        assertEquals("'brokers' must be at least 1, got 0", e.message(QUOTED));
        assertEquals("'brokers' must be at least 1, got 0", UserError.messageOf(e, QUOTED));
        assertEquals(List.of(Setting.BROKERS), e.settings());
    }

    @Test
    void anyOtherFailureKeepsItsMessage() {
        UserError plain = new UserError("redis refused CONFIG GET");
        assertEquals("redis refused CONFIG GET", plain.message(QUOTED));
        assertEquals(List.of(), plain.settings());
        assertEquals("closed", UserError.messageOf(new IllegalStateException("closed"), QUOTED));
        assertNull(UserError.messageOf(new IllegalStateException(), QUOTED));
    }
}
